/**
 * count_tokens for any target: Anthropic-speaking targets ask `/v1/messages/count_tokens`,
 * OpenAI asks `/responses/input_tokens`, Gemini its native countTokens; everything else gets a
 * local tokenizer estimate. Upstream failures become ProtocolErrors (they never count against a
 * provider's health: that is routing's business).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ProtocolError } from '../protocols/errors.js';
import type { Dialect, HubRequest } from '../protocols/hub.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { responsesCodec } from '../protocols/responses/index.js';
import { geminiCountBody } from './gemini-count.js';
import { estimateInputTokens } from './local-token-estimate.js';
import type { ModelControls } from './stated-controls.js';
import type { ResolvedProvider } from './types.js';
import { toUpstreamError, UpstreamError, type UpstreamRequest } from './upstream-client.js';
import { upstreamText } from './upstream-text.js';
import { isObject } from '../util/is-object.js';
import { withRefusedHint } from './refused-connection-hint.js';

export interface CountTokensInput {
  hub: HubRequest;
  /**
   * The client's body, its reasoning proof fitted for this target by routing (sent as it is to a
   * Messages target when the client spoke Messages).
   */
  raw: Record<string, unknown>;
  from: Dialect;
  /** The client's headers (anthropic-version / anthropic-beta reach Messages targets). */
  headers?: IncomingHttpHeaders;
  /**
   * What the target's model list stated of the model's reasoning controls (stated-controls.ts): the
   * thinking a Messages target refuses is fitted as for generation (a 400 as sent).
   */
  stated?: ModelControls;
  /** How long to wait for the provider: the settings' timeouts, capped for a count (routing/count-timeouts.ts). */
  timeouts: CountTimeouts;
}

export type CountTimeouts = Pick<UpstreamRequest, 'connectTimeoutMs' | 'headersTimeoutMs' | 'idleTimeoutMs'>;

/** Fields of a Messages create body that count_tokens rejects. */
const NOT_FOR_COUNTING = ['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'metadata', 'service_tier', 'reasoning_effort', 'container', 'inference_geo'];

/** What `/responses/input_tokens` takes from a create body (PROTOCOLS.md §3.6). */
const RESPONSES_COUNT_FIELDS = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'text', 'reasoning', 'parallel_tool_calls', 'truncation'];
/** What names a conversation OpenAI keeps (it counts that conversation in front of the input). */
const OPENAI_STATE_FIELDS = ['previous_response_id', 'conversation'];

export async function countTokens(target: ResolvedProvider, model: string, req: CountTokensInput, signal?: AbortSignal): Promise<number> {
  const { adapter } = target;
  switch (adapter.kind) {
    case 'anthropic':
    case 'custom-b': {
      const body = messagesCountBody(target, model, req);
      const res = await post(target, adapter.url(target.baseUrl, 'count_tokens'), adapter.headers(target.credential, req.headers ?? {}, req.from), body, req.timeouts, signal);
      return readCount(res, 'input_tokens', target.slug);
    }
    case 'openai': {
      const encoded = responsesCodec.encodeRequest({ ...req.hub, model, stream: false }, adapter.encodeOptions(model));
      encoded.model = model;
      adapter.finalizeBody(encoded, { model, effort: req.hub.reasoning?.effort, from: req.from, passthrough: false, stream: false });
      const body: Record<string, unknown> = {};
      for (const key of RESPONSES_COUNT_FIELDS) if (encoded[key] !== undefined) body[key] = encoded[key];
      // a Responses client's own chain (an id or conversation only OpenAI keeps) is OpenAI's to count
      if (req.from === 'responses') for (const key of OPENAI_STATE_FIELDS) if (typeof req.raw[key] === 'string' || isObject(req.raw[key])) body[key] = req.raw[key];
      const res = await post(target, adapter.url(target.baseUrl, 'count_tokens'), adapter.headers(target.credential, {}, req.from), body, req.timeouts, signal);
      return readCount(res, 'input_tokens', target.slug);
    }
    case 'gemini': {
      const { body, extraTokens } = geminiCountBody(req.hub, model);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'svc-proxy' };
      if (target.credential) headers['x-goog-api-key'] = target.credential;
      const res = await post(target, adapter.url(target.baseUrl, 'count_tokens', model), headers, body, req.timeouts, signal);
      return (await readCount(res, 'totalTokens', target.slug)) + extraTokens;
    }
    default:
      return estimateInputTokens(req.hub);
  }
}

function messagesCountBody(target: ResolvedProvider, model: string, req: CountTokensInput): Record<string, unknown> {
  const passthrough = req.from === 'messages';
  // Shallow copy of the client's body: finalize only replaces top-level fields it changes.
  const body = passthrough
    ? { ...req.raw, ...(isObject(req.raw.output_config) ? { output_config: { ...req.raw.output_config } } : {}), model }
    : messagesCodec.encodeRequest({ ...req.hub, model, stream: false }, target.adapter.encodeOptions(model));
  body.model = model;
  // The same effort policy as the real request, so the count endpoint sees what generation would.
  target.adapter.finalizeBody(body, { model, effort: req.hub.reasoning?.effort, from: req.from, passthrough, stream: false, stated: req.stated });
  for (const key of NOT_FOR_COUNTING) delete body[key];
  return body;
}

interface Answer {
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The provider answered the count with an error. It is a ProtocolError as it stands (client-side
 * statuses kept, the rest a bad gateway), and carries the answer itself, so routing can classify it
 * as it classifies a generation's (a prompt too long, a rate limit and when to come back).
 */
export class CountRefused extends ProtocolError {
  constructor(
    message: string,
    readonly upstreamStatus: number,
    readonly body: string,
    readonly headers: Answer['headers'],
  ) {
    super(upstreamStatus >= 400 && upstreamStatus < 500 ? upstreamStatus : 502, 'upstream_error', message);
    this.name = 'CountRefused';
  }
}

async function post(target: ResolvedProvider, url: string, headers: Record<string, string>, body: unknown, timeouts: CountTimeouts, signal?: AbortSignal): Promise<Answer> {
  try {
    return await upstreamText({ url, method: 'POST', headers, body: JSON.stringify(body), signal, ...timeouts }, 4 * 1024 * 1024);
  } catch (err) {
    const e = err instanceof UpstreamError ? err : toUpstreamError(err, url, timeouts);
    throw new ProtocolError(e.status, e.code, withRefusedHint(`Counting tokens with "${target.slug}" failed: ${e.message}`, e, target));
  }
}

async function readCount(res: Answer, field: string, slug: string): Promise<number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    parsed = undefined;
  }
  if (res.status < 200 || res.status >= 300) {
    const detail = upstreamMessage(parsed);
    throw new CountRefused(`Counting tokens with "${slug}" failed: the provider answered ${res.status}${detail ? `: ${detail}` : '.'}`, res.status, res.text, res.headers);
  }
  const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[field] : undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ProtocolError(502, 'upstream_invalid_response', `Counting tokens with "${slug}" failed: the provider's answer has no ${field}.`);
  }
  return value;
}

/** The error message in an OpenAI, Anthropic or Google error body (Google's may be wrapped in an array). */
export function upstreamMessage(parsed: unknown): string | undefined {
  const body = Array.isArray(parsed) ? parsed[0] : parsed;
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as Record<string, unknown>).error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  const message = (body as Record<string, unknown>).message;
  return typeof message === 'string' ? message : undefined;
}
