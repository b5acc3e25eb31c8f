/**
 * A Messages request from a protocol B client → hub request. Lenient where the meaning is clear
 * (max_tokens may be missing, empty text is dropped), strict where a wrong guess would change the
 * answer (every malformed field is a 400 with a stable code and the field's path).
 */
import type { HubRequest, ResponseFormat } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeCacheControl } from './cache-control.js';
import { applyContextEdits } from './context-edits.js';
import { expectArray, expectObject, expectString, isObject, optBoolean, optNumber, type JsonObject } from './json.js';
import { decodeMessages, decodeSystemContent } from './messages-decode.js';
import { decodeReasoning } from './thinking.js';
import { availableTools } from './tool-availability.js';
import { decodeTool, decodeToolChoice } from './tools-decode.js';

/** No model writes anywhere near this many tokens in one answer; a larger cap is a client bug. */
export const MAX_TOKENS_LIMIT = 10_000_000;

export function decodeRequest(raw: unknown): HubRequest {
  if (!isObject(raw)) throw badRequest('invalid_request', 'The request body must be a JSON object.');
  const body = raw;

  const model = body.model;
  if (typeof model !== 'string' || model.trim() === '') throw badRequest('invalid_model', 'model must be a non-empty string such as "provider/model".', 'model');

  const { items, system: inlineSystem, toolEvents } = decodeMessages(body.messages);
  const choice = decodeToolChoice(body.tool_choice);
  const forced = choice.toolChoice?.type === 'function' ? choice.toolChoice.name : undefined;
  const req: HubRequest = {
    model,
    system: [...decodeSystemContent(body.system, 'system'), ...inlineSystem],
    items,
    tools: availableTools(body.tools, toolEvents, forced, decodeTool),
    stream: optBoolean(body.stream, 'stream') ?? false,
    ...choice,
  };

  const maxTokens = decodeMaxTokens(body.max_tokens);
  if (maxTokens !== undefined) req.maxOutputTokens = maxTokens;

  const temperature = rangedNumber(body.temperature, 'temperature', 0, 2);
  if (temperature !== undefined) req.temperature = temperature;
  const topP = rangedNumber(body.top_p, 'top_p', 0, 1);
  if (topP !== undefined) req.topP = topP;
  const topK = rangedNumber(body.top_k, 'top_k', 0, Number.MAX_SAFE_INTEGER);
  if (topK !== undefined) {
    if (!Number.isInteger(topK)) throw badRequest('invalid_request', 'top_k must be an integer.', 'top_k');
    req.topK = topK;
  }

  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    const stop = expectArray(body.stop_sequences, 'stop_sequences').map((s, i) => expectString(s, `stop_sequences[${i}]`));
    if (stop.length > 0) req.stop = stop;
  }

  if (body.metadata !== undefined && body.metadata !== null) {
    const metadata = expectObject(body.metadata, 'metadata');
    if (metadata.user_id !== undefined && metadata.user_id !== null) {
      const user = expectString(metadata.user_id, 'metadata.user_id');
      if (user !== '') req.user = user;
    }
  }

  const cc = decodeCacheControl(body.cache_control, 'cache_control');
  if (cc) req.cacheControl = cc;

  const reasoning = decodeReasoning(body);
  if (reasoning) req.reasoning = reasoning;

  const format = decodeOutputFormat(body);
  if (format) req.responseFormat = format;

  // after everything else is read: the edits change what the items carry
  const edits = applyContextEdits(req, body.context_management);
  if (edits) req.contextEdits = edits;

  if (Array.isArray(body.mcp_servers) && body.mcp_servers.length > 0) {
    throw badRequest('unsupported_feature', 'mcp_servers (remote MCP through Anthropic) only works with anthropic/… models.', 'mcp_servers');
  }
  return req;
}

function decodeMaxTokens(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw badRequest('invalid_max_tokens', 'max_tokens must be a positive integer.', 'max_tokens');
  }
  if (v === 0) {
    throw badRequest('invalid_max_tokens', 'max_tokens: 0 (prompt-cache priming) only works with anthropic/… models.', 'max_tokens');
  }
  if (v > MAX_TOKENS_LIMIT) {
    throw badRequest('invalid_max_tokens', `max_tokens ${v} is larger than any model can produce (limit ${MAX_TOKENS_LIMIT}).`, 'max_tokens');
  }
  return v;
}

function rangedNumber(v: unknown, path: string, min: number, max: number): number | undefined {
  const n = optNumber(v, path);
  if (n !== undefined && (n < min || n > max)) throw badRequest('invalid_request', `${path} must be between ${min} and ${max}.`, path);
  return n;
}

/** `output_config.format` (GA) or the older top-level `output_format` (structured-outputs beta). */
function decodeOutputFormat(body: JsonObject): ResponseFormat | undefined {
  const outputConfig = body.output_config;
  if (outputConfig !== undefined && outputConfig !== null) expectObject(outputConfig, 'output_config');
  const fromConfig = isObject(outputConfig) ? outputConfig.format : undefined;
  const [raw, path] = fromConfig !== undefined && fromConfig !== null ? [fromConfig, 'output_config.format'] : [body.output_format, 'output_format'];
  if (raw === undefined || raw === null) return undefined;
  const f = expectObject(raw, path);
  if (f.type !== 'json_schema') throw badRequest('invalid_request', `${path}.type must be "json_schema".`, `${path}.type`);
  const schema = expectObject(f.schema, `${path}.schema`);
  // Anthropic structured output always enforces the schema; the name is ours (OpenAI needs one).
  return { type: 'json_schema', name: 'response', schema, strict: true };
}
