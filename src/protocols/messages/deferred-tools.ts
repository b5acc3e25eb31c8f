/**
 * Deferred tool loading (Anthropic's tool search) for a Messages request converted to another
 * provider.
 *
 * A tool with `defer_loading: true` stays out of the model's view until a `tool_reference` block in
 * a tool_result names it; Anthropic then expands the reference into the tool's definition at that
 * point of the conversation. Claude Code sends this shape to any base URL since 2.1.247: most of
 * its tools (WebSearch, WebFetch, MCP tools, …) are deferred behind its own ToolSearch function,
 * whose result is a list of tool_reference blocks. No other provider expands references, so the
 * converted request offers the tools the model could call on Anthropic at that point: every tool
 * not deferred, every deferred tool referenced so far, and the one tool_choice forces. A reference
 * itself becomes a line of text saying the tool is loaded.
 */
import { badRequest } from '../errors.js';
import { isObject } from './json.js';

export interface ToolReference {
  name: string;
  /** Path of the block, for the error when it names no declared tool. */
  path: string;
}

/** What the model reads where Anthropic would have expanded the tool's definition. */
export function loadedToolText(name: string): string {
  return `Tool ${JSON.stringify(name)} is loaded and can be called now.`;
}

/** Deferred tools the model can see: the ones referenced, and the one tool_choice forces. */
export function loadedToolNames(references: readonly ToolReference[], forced: string | undefined): ReadonlySet<string> {
  const names = new Set<string>();
  for (const r of references) names.add(r.name);
  if (forced !== undefined) names.add(forced);
  return names;
}

/**
 * Anthropic refuses a reference to a tool the request does not declare; so does the conversion,
 * rather than tell the model a tool is loaded that it cannot call.
 */
export function checkReferences(references: readonly ToolReference[], tools: unknown): void {
  if (references.length === 0) return;
  const declared = new Set<string>();
  if (Array.isArray(tools)) for (const t of tools) if (isObject(t) && typeof t.name === 'string') declared.add(t.name);
  for (const r of references) {
    if (!declared.has(r.name)) {
      throw badRequest('invalid_tool_call', `${r.path}: tool_reference names ${JSON.stringify(r.name)}, which is not in tools.`, `${r.path}.tool_name`);
    }
  }
}
