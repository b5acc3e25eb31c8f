/**
 * Tool definitions and tool_choice from a Messages client → hub.
 *
 * The decoder only runs when the request is converted for a non-Anthropic model (same dialect is
 * passed through). Web search becomes the hub's web search, which routing sends only to targets
 * that search (web-search.ts); the other Anthropic-defined tools (code execution, bash, text
 * editor, computer, memory, …) cannot be honoured: they are rejected with a message saying so.
 * A deferred tool (`defer_loading`) the conversation has not loaded is left out before any of
 * that: the model would not see it on Anthropic either (tool-availability.ts).
 */
import type { FunctionTool, Tool, ToolChoice } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeCacheControl } from './cache-control.js';
import { expectObject, expectString, isObject, optBoolean, optString, type JsonObject } from './json.js';
import { decodeWebSearchTool, isWebSearchType, refuseServerTool } from './web-search.js';

/** One `tools` entry (tool-availability.ts decides which entries the model is offered). */
export function decodeTool(t: JsonObject, path: string): Tool {
  if (isWebSearchType(t.type)) return decodeWebSearchTool(t, path);
  if (t.type !== undefined && t.type !== null && t.type !== 'custom') refuseServerTool(t, path);
  const name = expectString(t.name, `${path}.name`);
  if (name === '') throw badRequest('invalid_request', `${path}.name must not be empty.`, `${path}.name`);
  const tool: FunctionTool = { type: 'function', name };
  const description = optString(t.description, `${path}.description`);
  if (description) tool.description = description;
  if (t.input_schema !== undefined && t.input_schema !== null) tool.parameters = expectObject(t.input_schema, `${path}.input_schema`);
  const strict = optBoolean(t.strict, `${path}.strict`);
  if (strict !== undefined) tool.strict = strict;
  const cc = decodeCacheControl(t.cache_control, `${path}.cache_control`);
  if (cc) tool.cacheControl = cc;
  return tool;
}

export function decodeToolChoice(v: unknown): { toolChoice?: ToolChoice; parallelToolCalls?: boolean } {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw badRequest('invalid_request', 'tool_choice must be an object such as {"type":"auto"}.', 'tool_choice');
  const disableParallel = optBoolean(v.disable_parallel_tool_use, 'tool_choice.disable_parallel_tool_use');
  const parallel = disableParallel === true ? { parallelToolCalls: false } : {};
  switch (v.type) {
    case 'auto':
      return { toolChoice: { type: 'auto' }, ...parallel };
    case 'any':
      return { toolChoice: { type: 'required' }, ...parallel };
    case 'none':
      return { toolChoice: { type: 'none' } };
    case 'tool': {
      const name = expectString(v.name, 'tool_choice.name');
      if (name === '') throw badRequest('invalid_request', 'tool_choice.name must not be empty.', 'tool_choice.name');
      return { toolChoice: { type: 'function', name }, ...parallel };
    }
    default:
      throw badRequest('invalid_request', 'tool_choice.type must be auto, any, tool or none.', 'tool_choice.type');
  }
}
