/**
 * Hub tools and tool choice → Messages `tools` / `tool_choice`.
 *
 * `input_schema` must be an object schema without a root combinator (input-schema.ts). Anthropic
 * rejects a request whose history holds tool_use/tool_result blocks when no tools are declared,
 * so a placeholder tool is added then.
 * There is no allowed-tools subset in Messages: the tool list itself is filtered instead.
 */
import type { Tool as MessagesTool, ToolChoice as MessagesToolChoice, WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages/messages';
import type { HubRequest } from '../hub.js';
import { badRequest } from '../errors.js';
import { withCacheControl } from './cache-control.js';
import { fitInputSchema } from './input-schema.js';
import { webSearchServerTool } from './web-search.js';

/** Declared only so history with tool blocks is accepted; its description asks the model not to use it. */
export const PLACEHOLDER_TOOL_NAME = 'svc_proxy_noop';

/** What this encoder declares: the client's tools and, for its web search, Anthropic's server tool. */
type EncodedTool = MessagesTool | WebSearchTool20250305;

export function encodeTools(req: HubRequest, historyHasTools: boolean, keepCache: boolean): { tools?: EncodedTool[]; tool_choice?: MessagesToolChoice } {
  let tools: EncodedTool[] = req.tools.map((t, i): EncodedTool => {
    if (t.type === 'hosted') {
      const kind = typeof t.raw.type === 'string' ? t.raw.type : 'hosted';
      throw badRequest('unsupported_feature', `tools[${i}]: the hosted tool "${kind}" only runs on openai/… models.`, `tools[${i}]`);
    }
    if (t.type === 'web_search') return webSearchServerTool(t);
    const tool: MessagesTool = { name: t.name, input_schema: fitInputSchema(t.parameters) };
    if (t.description) tool.description = t.description;
    if (t.strict !== undefined) tool.strict = t.strict;
    return withCacheControl(tool, t.cacheControl, keepCache);
  });

  let choice: MessagesToolChoice | undefined;
  const tc = req.toolChoice;
  switch (tc?.type) {
    case undefined:
      break;
    case 'auto':
      choice = { type: 'auto' };
      break;
    case 'none':
      choice = { type: 'none' };
      break;
    case 'required':
      choice = { type: 'any' };
      break;
    case 'function':
      choice = { type: 'tool', name: tc.name };
      break;
    case 'allowed_tools': {
      const allowed = new Set(tc.names);
      tools = tools.filter((t) => allowed.has(t.name));
      if (tools.length === 0) {
        throw badRequest('invalid_request', 'tool_choice.allowed_tools names none of the declared tools.', 'tool_choice');
      }
      choice = { type: tc.mode === 'required' ? 'any' : 'auto' };
      break;
    }
  }
  if (req.parallelToolCalls === false && tools.length > 0 && choice?.type !== 'none') {
    // set on the choice built above (a spread copy gaining a key gets a hidden class per call on Node 20)
    choice ??= { type: 'auto' };
    choice.disable_parallel_tool_use = true;
  }

  if (tools.length === 0) {
    // tool_choice without tools is a 400 upstream; a placeholder is only there for history.
    if (!historyHasTools) return {};
    return {
      tools: [{ name: PLACEHOLDER_TOOL_NAME, description: 'Placeholder so earlier tool calls stay valid. Do not call it.', input_schema: { type: 'object', properties: {} } }],
      ...(choice?.type === 'none' ? { tool_choice: choice } : {}),
    };
  }
  return choice ? { tools, tool_choice: choice } : { tools };
}

