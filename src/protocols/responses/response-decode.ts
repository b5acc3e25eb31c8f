/**
 * A non-streamed Responses body from an OpenAI upstream → hub response. Web searches become the
 * hub's (web-search.ts); output items of other hosted tools (only present when the client used
 * them, i.e. in passthrough) are skipped. A body that is
 * not a response, or a failed/cancelled one, becomes a ProtocolError with the upstream's message.
 */
import type { ContentPart, HubResponse, OutputItem, TextPart } from '../hub.js';
import { ProtocolError } from '../errors.js';
import { isObject, str, namespaceField, type JsonObject } from './json.js';
import { originOf, textOf } from './reasoning.js';
import { httpStatusForErrorCode, stopReasonFrom, type OutputFacts } from './status.js';
import { logprobsFromWire } from './logprobs.js';
import { usageFromWire } from './usage.js';
import { citedPages, titleSearchSources, urlCitationsOf, webSearchOf } from './web-search.js';

export function decodeResponse(body: unknown): HubResponse {
  // An error object in place of a response (some gateways answer 200 with one): keep its message.
  if (isObject(body) && !Array.isArray(body.output) && isObject(body.error)) throw errorBody(body.error);
  if (!isObject(body) || !Array.isArray(body.output)) {
    throw new ProtocolError(502, 'upstream_error', 'The upstream returned a malformed Responses body (no output array).');
  }
  const status = str(body.status);
  if (status === 'failed' || status === 'cancelled') throw failure(body, status);

  const facts: OutputFacts = { hasFunctionCall: false, hasText: false, hasRefusal: false };
  const output: OutputItem[] = [];
  let searched = false;
  for (const raw of body.output) {
    const item = decodeOutputItem(raw, facts);
    if (item) output.push(item);
    searched ||= item?.type === 'web_search';
  }
  // only a search's pages take titles from the answer's citations
  if (searched) titleSearchSources(output, citedPages(output));
  const incomplete = isObject(body.incomplete_details) ? str(body.incomplete_details.reason) : undefined;
  const res: HubResponse = {
    id: str(body.id) ?? '',
    model: str(body.model) ?? '',
    output,
    stopReason: stopReasonFrom(status, incomplete, facts),
  };
  const usage = usageFromWire(body.usage);
  if (usage) res.usage = usage;
  if (typeof body.created_at === 'number') res.created = body.created_at;
  const tier = str(body.service_tier);
  if (tier) res.serviceTier = tier;
  return res;
}

/** One upstream output item → hub item (undefined for items the hub has no place for). */
export function decodeOutputItem(raw: unknown, facts: OutputFacts): OutputItem | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw.type) {
    case 'reasoning':
      return { type: 'reasoning', text: textOf(raw), origin: originOf(str(raw.id), raw.encrypted_content) };
    case 'function_call':
      facts.hasFunctionCall = true;
      return {
        type: 'function_call',
        callId: str(raw.call_id) ?? str(raw.id) ?? '',
        name: str(raw.name) ?? '',
        ...namespaceField(raw.namespace),
        arguments: argumentsOf(raw.arguments),
      };
    case 'message': {
      const content = messageContent(raw.content, facts);
      const phase = str(raw.phase);
      return phase ? { type: 'message', role: 'assistant', content, phase } : { type: 'message', role: 'assistant', content };
    }
    case 'web_search_call':
      return webSearchOf(raw);
    default:
      return undefined;
  }
}

function messageContent(content: unknown, facts: OutputFacts): ContentPart[] {
  if (typeof content === 'string') {
    facts.hasText = true;
    return [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content)) return [];
  const parts: ContentPart[] = [];
  for (const part of content) {
    if (!isObject(part)) continue;
    if (part.type === 'output_text' && typeof part.text === 'string') {
      facts.hasText = true;
      const text: TextPart = { type: 'text', text: part.text };
      const citations = urlCitationsOf(part.annotations, part.text.length);
      if (citations.length > 0) text.citations = citations;
      const logprobs = logprobsFromWire(part.logprobs);
      if (logprobs) text.logprobs = logprobs;
      parts.push(text);
    } else if (part.type === 'refusal' && typeof part.refusal === 'string') {
      facts.hasRefusal = true;
      parts.push({ type: 'refusal', text: part.refusal });
    }
  }
  return parts;
}

/** Arguments are JSON text; some servers send an object instead. */
export function argumentsOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

function errorBody(error: JsonObject): ProtocolError {
  const code = str(error.code);
  const byCode = httpStatusForErrorCode(code);
  const status = byCode !== 502 ? byCode : httpStatusForErrorCode(str(error.type));
  const message = str(error.message) ?? 'The upstream reported an error.';
  return new ProtocolError(status, 'upstream_error', code ? `${message} (${code})` : message);
}

function failure(body: JsonObject, status: string): ProtocolError {
  const error = isObject(body.error) ? body.error : {};
  const code = str(error.code);
  const message = str(error.message) ?? (status === 'cancelled' ? 'The upstream cancelled the response.' : 'The upstream response failed.');
  return new ProtocolError(httpStatusForErrorCode(code), 'upstream_error', code ? `${message} (${code})` : message);
}
