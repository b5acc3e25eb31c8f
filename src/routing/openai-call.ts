/**
 * One call on OpenAI's stateful API (a stored response, a conversation) with the daemon's
 * credential for the `openai` provider: the stored-responses and conversations endpoints forward a
 * client's call this way, and a previous_response_id of OpenAI's is read this way for another model
 * (openai-chain.ts). The client's own headers never go along.
 */
import type { HubError } from '../protocols/hub.js';
import { joinUrl, trimBase } from '../providers/base-url.js';
import type { ResolvedProvider } from '../providers/types.js';
import { timeouts, type Exchange } from './exchange.js';
import { maskEchoedBytes } from './echoed-secrets.js';
import { streamSecret } from './redact.js';
import { ClientGone } from './request-body.js';
import { sendBody, sendError } from './respond.js';
import { answerReadFailure, WHOLE_LIMITS } from './upstream-body.js';
import { failureOfAnswer, parseErrorBody, retryAdviceHeaders, transportFailure, type UpstreamFailure } from './upstream-errors.js';

export type OpenAICall =
  | { ok: true; status: number; body: Buffer; contentType: string | undefined }
  | { ok: false; failure: UpstreamFailure };

/** `path` after the provider's base (`/responses/{id}…`, `/conversations…`); `query` '' or '?…'. */
export function openaiUrl(baseUrl: string, path: string, query: string): string {
  const url = joinUrl(trimBase(baseUrl), path);
  if (query === '' || query === '?') return url;
  return url.includes('?') ? `${url}&${query.slice(1)}` : `${url}${query}`;
}

/** Throws ClientGone when the client left meanwhile. */
export async function callOpenAI(x: Exchange, p: ResolvedProvider, method: string, path: string, query = '', body?: Buffer): Promise<OpenAICall> {
  const url = openaiUrl(p.baseUrl, path, query);
  const headers = p.adapter.headers(p.credential, x.req.headers, 'responses');
  if (body) headers['content-type'] = 'application/json';
  else delete headers['content-type'];
  let up;
  try {
    up = await x.services.upstreamAnswer({ url, method, headers, body, signal: x.abort.upstreamSignal, ...timeouts(x.config) }, WHOLE_LIMITS);
  } catch (err) {
    if (x.abort.aborted) throw new ClientGone();
    const code = (err as { code?: unknown } | null)?.code;
    return { ok: false, failure: transportFailure(p.slug, typeof code === 'string' ? code : 'upstream_unreachable', (err as Error)?.message ?? String(err), p.credential) };
  }
  if (up.status < 200 || up.status >= 300) {
    // an error's body that broke off is read as none; its retry advice goes on to the client, as
    // generation's does
    const buf = up.bytes ?? Buffer.alloc(0);
    return { ok: false, failure: failureOfAnswer(p.slug, up.status, up.headers, buf, parseErrorBody(buf), p.credential) };
  }
  if (up.bytes === undefined) {
    if (x.abort.aborted) throw new ClientGone();
    return { ok: false, failure: answerReadFailure(p.slug, up.bodyError, p.credential) };
  }
  return { ok: true, status: up.status, body: up.bytes, contentType: [up.headers['content-type']].flat()[0] };
}

/**
 * A client's call forwarded to OpenAI and OpenAI's answer sent back as it came; a failure goes out
 * in protocol A's shape, worded by `explain` when the caller has more to say. The call is the
 * request's one attempt in the log.
 */
export async function relayToOpenAI(
  x: Exchange,
  p: ResolvedProvider,
  call: { method: string; path: string; query?: string; body?: Buffer },
  explain: (failure: UpstreamFailure) => HubError = (failure) => failure,
): Promise<void> {
  const { record } = x;
  const started = performance.now();
  // a request ended meanwhile (the client left, a revoke, the drain deadline) logs this attempt with its code
  record.begin(p.slug, started);
  const answer = await callOpenAI(x, p, call.method, call.path, call.query, call.body);
  const latencyMs = Math.round(performance.now() - started);
  const headers = { 'x-svc-upstream-provider': p.slug };
  if (!answer.ok) {
    const told = explain(answer.failure);
    record.attempt({ target: p.slug, status: answer.failure.upstreamStatus, latencyMs, errorCode: told.code });
    sendError(x.res, 'a', told, retryAdviceHeaders(answer.failure, headers));
    record.finish(x.deps.log, told.status, told.code);
    return;
  }
  record.attempt({ target: p.slug, status: answer.status, latencyMs });
  sendBody(x.res, answer.status, answer.contentType ?? 'application/json', maskEchoedBytes(answer.body, streamSecret(p.credential)), headers);
  record.firstByte();
  record.finish(x.deps.log, answer.status);
}
