/**
 * A Responses request from a client → hub request. Every check that fails throws a ProtocolError
 * (400 with a stable code and the offending parameter); nothing else escapes.
 */
import type { Effort, HubRequest, ReasoningRequest, ResponseFormat } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeInput } from './input-decode.js';
import { isObject, optBoolean, optNumber, optString, reqString, type JsonObject } from './json.js';
import { checkToolPairs } from './tool-pairs.js';
import { decodeToolChoice, decodeTools } from './tools-decode.js';

const EFFORT_VALUES = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
const SUMMARY_VALUES = ['auto', 'concise', 'detailed'] as const;
/** Larger than any model produces; past it the value is a mistake (same bound as Chat and Messages). */
const MAX_OUTPUT_TOKENS_LIMIT = 10_000_000;

export function decodeRequest(body: unknown): HubRequest {
  if (!isObject(body)) throw badRequest('invalid_request', 'The request body must be a JSON object.');
  const model = reqString(body, 'model', 'model', 'invalid_model');
  if (model.length === 0) throw badRequest('invalid_model', 'model must not be empty.', 'model');
  if (body.prompt !== undefined && body.prompt !== null) {
    throw badRequest('unsupported_feature', 'Stored prompt templates (prompt) need OpenAI-side state; send instructions and input instead.', 'prompt');
  }

  const req: HubRequest = { model, system: [], items: [], tools: decodeTools(body.tools), stream: optBoolean(body, 'stream', 'stream') ?? false };
  const stateful = statefulFeatureOf(body);
  if (stateful) req.statefulFeature = stateful;

  const instructions = optString(body, 'instructions', 'instructions');
  if (instructions) req.system.push({ text: instructions });
  const input = decodeInput(body.input);
  req.system.push(...input.system);
  req.items = input.items;
  // With server-side state the missing history lives upstream: routing answers unsupported_feature,
  // which is the error the client should see rather than one about the partial input.
  if (!stateful) {
    if (!input.items.some((item) => item.type !== 'reasoning')) {
      const missing = body.input === undefined || body.input === null;
      throw badRequest('invalid_input', missing ? 'input is required.' : 'input must contain at least one user or assistant item.', 'input');
    }
    checkToolPairs(input.items, input.positions);
  }

  const toolChoice = decodeToolChoice(body.tool_choice, req.tools);
  if (toolChoice) req.toolChoice = toolChoice;
  const parallel = optBoolean(body, 'parallel_tool_calls', 'parallel_tool_calls');
  if (parallel !== undefined) req.parallelToolCalls = parallel;
  decodeText(body, req);
  decodeSampling(body, req);
  const reasoning = decodeReasoning(body.reasoning);
  if (reasoning) req.reasoning = reasoning;
  decodeIdentity(body, req);
  return req;
}

function statefulFeatureOf(body: JsonObject): HubRequest['statefulFeature'] {
  if (body.previous_response_id !== undefined && body.previous_response_id !== null) return 'previous_response_id';
  if (body.conversation !== undefined && body.conversation !== null) return 'conversation';
  if (body.background === true) return 'background';
  return undefined;
}

function decodeText(body: JsonObject, req: HubRequest): void {
  const text = body.text;
  if (text === undefined || text === null) return;
  if (!isObject(text)) throw badRequest('invalid_request', 'text must be an object.', 'text');
  if (text.format !== undefined && text.format !== null) req.responseFormat = decodeFormat(text.format);
  const verbosity = text.verbosity;
  if (verbosity !== undefined && verbosity !== null) {
    if (verbosity !== 'low' && verbosity !== 'medium' && verbosity !== 'high') {
      throw badRequest('invalid_request', 'text.verbosity must be "low", "medium" or "high".', 'text.verbosity');
    }
    req.verbosity = verbosity;
  }
}

function decodeFormat(format: unknown): ResponseFormat {
  if (!isObject(format)) throw badRequest('invalid_request', 'text.format must be an object.', 'text.format');
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const name = reqString(format, 'name', 'text.format.name');
      if (!isObject(format.schema)) throw badRequest('invalid_request', 'text.format.schema must be a JSON schema object.', 'text.format.schema');
      const out: ResponseFormat = { type: 'json_schema', name, schema: format.schema };
      const strict = optBoolean(format, 'strict', 'text.format.strict');
      if (strict !== undefined) out.strict = strict;
      const description = optString(format, 'description', 'text.format.description');
      if (description !== undefined) out.description = description;
      return out;
    }
    default:
      throw badRequest('invalid_request', 'text.format.type must be "text", "json_object" or "json_schema".', 'text.format.type');
  }
}

function decodeSampling(body: JsonObject, req: HubRequest): void {
  const max = body.max_output_tokens;
  if (max !== undefined && max !== null) {
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1 || max > MAX_OUTPUT_TOKENS_LIMIT) {
      throw badRequest('invalid_max_tokens', `max_output_tokens must be a positive integer no larger than ${MAX_OUTPUT_TOKENS_LIMIT}.`, 'max_output_tokens');
    }
    req.maxOutputTokens = max;
  }
  const temperature = optNumber(body, 'temperature', 'temperature', 0, 2);
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optNumber(body, 'top_p', 'top_p', 0, 1);
  if (topP !== undefined) req.topP = topP;
}

function decodeReasoning(value: unknown): ReasoningRequest | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw badRequest('invalid_reasoning', 'reasoning must be an object.', 'reasoning');
  const out: ReasoningRequest = {};
  const effort = value.effort;
  if (effort !== undefined && effort !== null) {
    if (typeof effort !== 'string' || !(EFFORT_VALUES as readonly string[]).includes(effort)) {
      throw badRequest('invalid_reasoning', `reasoning.effort must be one of ${EFFORT_VALUES.join(', ')}.`, 'reasoning.effort');
    }
    out.effort = effort === 'minimal' ? 'low' : (effort as Effort);
  }
  // generate_summary is the deprecated spelling of summary.
  const summary = value.summary ?? value.generate_summary;
  if (summary !== undefined && summary !== null) {
    if (typeof summary !== 'string' || !(SUMMARY_VALUES as readonly string[]).includes(summary)) {
      throw badRequest('invalid_reasoning', `reasoning.summary must be one of ${SUMMARY_VALUES.join(', ')}.`, 'reasoning.summary');
    }
    out.summary = summary as ReasoningRequest['summary'];
  }
  return out.effort !== undefined || out.summary !== undefined ? out : undefined;
}

function decodeIdentity(body: JsonObject, req: HubRequest): void {
  const user = optString(body, 'safety_identifier', 'safety_identifier') ?? optString(body, 'user', 'user');
  if (user) req.user = user;
  const metadata = body.metadata;
  if (metadata === undefined || metadata === null) return;
  if (!isObject(metadata)) throw badRequest('invalid_request', 'metadata must be an object of string values.', 'metadata');
  const entries = Object.entries(metadata);
  for (const [key, value] of entries) {
    if (typeof value !== 'string') throw badRequest('invalid_request', `metadata.${key} must be a string.`, `metadata.${key}`);
  }
  // fromEntries defines own properties, so even a "__proto__" key stays an ordinary key.
  req.metadata = Object.fromEntries(entries) as Record<string, string>;
}
