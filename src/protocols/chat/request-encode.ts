/**
 * HubRequest → Chat Completions body for a Chat-speaking upstream. Only fields generic
 * OpenAI-compatible servers understand are sent: `metadata`, `safety_identifier` and `top_k`
 * are left out (OpenAI-only or rejected by some servers, PROTOCOLS.md §5.5); provider quirks
 * (effort field, extra_body) belong to the provider adapter.
 */
import type { FunctionTool, HubRequest, ResponseFormat, ToolChoice } from '../hub.js';
import type { EncodeRequestOptions } from '../codec.js';
import { badRequest } from '../errors.js';
import { encodeMessages } from './request-encode-messages.js';
import type { Json } from './guards.js';
import { stopsSent } from '../stops-left-out.js';

function functionTools(req: HubRequest): FunctionTool[] {
  return req.tools.map((t, i) => {
    if (t.type === 'web_search') throw badRequest('unsupported_feature', 'Web search runs only on anthropic/… and openai/… models.', `tools[${i}]`);
    if (t.type !== 'function') {
      const kind = typeof t.raw.type === 'string' ? t.raw.type : 'hosted';
      throw badRequest('unsupported_feature', `Hosted tool "${kind}" is only available on OpenAI models.`, `tools[${i}]`);
    }
    return t;
  });
}

function encodeTool(t: FunctionTool): Json {
  const fn: Json = { name: t.name };
  if (t.description !== undefined) fn.description = t.description;
  if (t.parameters !== undefined) fn.parameters = t.parameters;
  if (t.strict !== undefined) fn.strict = t.strict;
  return { type: 'function', function: fn };
}

/**
 * Chat tool_choice. `allowed_tools` is expressed as "only these tools" + auto/required, which
 * every server understands (few know the allowed_tools object).
 */
function encodeToolChoice(choice: ToolChoice | undefined, tools: FunctionTool[]): { tools: FunctionTool[]; choice?: unknown } {
  if (!choice) return { tools };
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return { tools, choice: choice.type };
    case 'function':
      return { tools, choice: { type: 'function', function: { name: choice.name } } };
    case 'allowed_tools': {
      const names = new Set(choice.names);
      return { tools: tools.filter((t) => names.has(t.name)), choice: choice.mode };
    }
  }
}

function encodeResponseFormat(rf: ResponseFormat): Json {
  if (rf.type !== 'json_schema') return { type: rf.type };
  const js: Json = { name: rf.name, schema: rf.schema };
  if (rf.strict !== undefined) js.strict = rf.strict;
  if (rf.description !== undefined) js.description = rf.description;
  return { type: 'json_schema', json_schema: js };
}

export function encodeRequest(req: HubRequest, opts: EncodeRequestOptions): Record<string, unknown> {
  const body: Json = { model: req.model, messages: encodeMessages(req, opts) };
  const { tools, choice } = encodeToolChoice(req.toolChoice, functionTools(req));
  if (tools.length > 0) {
    body.tools = tools.map(encodeTool);
    if (choice !== undefined) body.tool_choice = choice;
    if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  }
  if (req.responseFormat) body.response_format = encodeResponseFormat(req.responseFormat);
  if (req.maxOutputTokens !== undefined) body[opts.maxTokensField ?? 'max_tokens'] = req.maxOutputTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  // no more than the target takes: routing holds the rest (stops-left-out.ts)
  const stop = stopsSent('chat', req.stop, opts);
  if (stop) body.stop = stop;
  if (opts.verbosity && req.verbosity) body.verbosity = req.verbosity;
  if (req.n !== undefined) body.n = req.n;
  if (req.user) body.user = req.user;
  if (req.reasoning?.effort) body.reasoning_effort = req.reasoning.effort;
  if (req.stream) {
    body.stream = true;
    // Always: usage is what the request log and the client's final chunk are built from.
    body.stream_options = { include_usage: true };
  }
  return body;
}
