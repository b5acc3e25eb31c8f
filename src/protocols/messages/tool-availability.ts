/**
 * Which tools the model can call when a converted Messages request ends: Anthropic's tool set
 * changes over a conversation, other providers take one list per request.
 *
 * - A tool with `defer_loading: true` stays out of the model's view until a `tool_reference`
 *   block in a tool_result names it (tool search); Anthropic then expands the reference into the
 *   tool's definition there. Claude Code sends this shape to any base URL since 2.1.247: most of
 *   its tools (WebSearch, WebFetch, MCP tools, …) are deferred behind its own ToolSearch function.
 * - A `tool_addition` block offers a declared tool (by reference) or one defined inline from that
 *   point on; a `tool_removal` block withdraws one (mid-conversation tool changes: Claude Code
 *   sends that beta to any base URL, and its code adds MCP tools that connect late this way).
 *
 * The converted request offers the tools in effect at the end, in declaration order, plus the
 * one tool_choice forces; each reference or change reaches the model as a line of text where it
 * was. What names no tool in effect is refused, as Anthropic refuses it.
 */
import type { TextPart, Tool } from '../hub.js';
import { badRequest } from '../errors.js';
import { isAdvisorTool } from './advisor.js';
import { expectArray, expectObject, expectString, optBoolean, type JsonObject } from './json.js';

/** A reference or change met in `messages`, in order. */
export type ToolEvent =
  | { kind: 'load'; name: string; path: string }
  | { kind: 'add'; name: string; path: string; definition?: JsonObject }
  | { kind: 'remove'; name: string; path: string };

/** A `tool_reference` inside a tool_result: the tool search loaded that tool. */
export function decodeToolReference(block: JsonObject, path: string, events: ToolEvent[]): TextPart {
  const name = toolName(block.tool_name, `${path}.tool_name`);
  events.push({ kind: 'load', name, path });
  return { type: 'text', text: `Tool ${JSON.stringify(name)} is loaded and can be called now.` };
}

export function isToolChange(type: unknown): boolean {
  return type === 'tool_addition' || type === 'tool_removal';
}

/** A `tool_addition` or `tool_removal` block. */
export function decodeToolChange(block: JsonObject, path: string, events: ToolEvent[]): TextPart {
  const tool = expectObject(block.tool, `${path}.tool`, 'invalid_content_part');
  const at = `${path}.tool`;
  if (tool.type === 'mcp_tool_reference' || tool.type === 'mcp_toolset_reference') {
    throw badRequest('unsupported_feature', `${at}: MCP tools through Anthropic's MCP connector only work with anthropic/… models.`, `${at}.type`);
  }
  if (block.type === 'tool_removal') {
    if (tool.type !== 'tool_reference') throw badRequest('invalid_content_part', `${at}.type must be "tool_reference".`, `${at}.type`);
    const name = toolName(tool.name, `${at}.name`);
    events.push({ kind: 'remove', name, path });
    return { type: 'text', text: `Tool ${JSON.stringify(name)} can no longer be called.` };
  }
  let name: string;
  if (tool.type === 'tool_reference') {
    name = toolName(tool.name, `${at}.name`);
    events.push({ kind: 'add', name, path });
  } else if (tool.type === 'tool_definition') {
    const definition = expectObject(tool.definition, `${at}.definition`, 'invalid_content_part');
    name = toolName(definition.name, `${at}.definition.name`);
    events.push({ kind: 'add', name, path, definition });
  } else {
    throw badRequest('invalid_content_part', `${at}.type must be "tool_reference" or "tool_definition".`, `${at}.type`);
  }
  return { type: 'text', text: `Tool ${JSON.stringify(name)} can be called from now on.` };
}

interface Entry {
  name: string;
  raw: JsonObject;
  path: string;
}

/**
 * The request's tools as the model has them at the end of `messages`; `decodeTool` turns a
 * tools entry into the hub's tool (only those offered are decoded: a deferred tool never loaded
 * is left out unchecked, as the model would not see it on Anthropic either).
 */
export function availableTools(
  tools: unknown,
  events: readonly ToolEvent[],
  forced: string | undefined,
  decodeTool: (raw: JsonObject, path: string) => Tool,
): Tool[] {
  const raws = tools === undefined || tools === null ? [] : expectArray(tools, 'tools').map((raw, i) => expectObject(raw, `tools[${i}]`));
  const isDeferred = (t: JsonObject, i: number) => optBoolean(t.defer_loading, `tools[${i}].defer_loading`) === true;
  // the common case (every converted request from most clients): all of them, as declared
  // the advisor is Anthropic's to run: any other model goes without it (advisor.ts)
  if (events.length === 0 && !raws.some(isDeferred)) return raws.flatMap((t, i) => (isAdvisorTool(t) ? [] : [decodeTool(t, `tools[${i}]`)]));

  // a nameless entry is refused when it is decoded; it cannot be loaded or changed by name
  const entries: Entry[] = raws.map((t, i) => ({ name: typeof t.name === 'string' ? t.name : '', raw: t, path: `tools[${i}]` }));
  const offered = new Set(entries.filter((e, i) => !isDeferred(e.raw, i)).map((e) => e.name));
  const declared = new Set(entries.map((e) => e.name));
  for (const e of events) {
    if (e.kind === 'add' && e.definition) {
      if (declared.has(e.name)) throw badRequest('invalid_request', `${e.path}: a tool named ${JSON.stringify(e.name)} is already declared.`, `${e.path}.tool.definition.name`);
      declared.add(e.name);
      entries.push({ name: e.name, raw: e.definition, path: `${e.path}.tool.definition` });
    } else if (!declared.has(e.name)) {
      const what = e.kind === 'load' ? 'tool_reference' : e.kind === 'add' ? 'tool_addition' : 'tool_removal';
      const field = e.kind === 'load' ? `${e.path}.tool_name` : `${e.path}.tool.name`;
      throw badRequest('invalid_tool_call', `${e.path}: ${what} names ${JSON.stringify(e.name)}, which is not in tools.`, field);
    }
    if (e.kind === 'remove') offered.delete(e.name);
    else offered.add(e.name);
  }
  if (forced !== undefined) offered.add(forced);
  return entries.filter((e) => offered.has(e.name) && !isAdvisorTool(e.raw)).map((e) => decodeTool(e.raw, e.path));
}

function toolName(v: unknown, path: string): string {
  const name = expectString(v, path, 'invalid_content_part');
  if (name === '') throw badRequest('invalid_content_part', `${path} must not be empty.`, path);
  return name;
}

