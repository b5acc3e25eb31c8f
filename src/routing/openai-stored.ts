/**
 * One call on a response OpenAI stored (`/responses/{id}…`), with the daemon's credential for the
 * `openai` provider: the stored-responses endpoint forwards a client's call this way, and a
 * previous_response_id of OpenAI's is read this way for another model (openai-chain.ts).
 */
import type { ResolvedProvider } from '../providers/types.js';
import { timeouts, type Exchange } from './exchange.js';
import { ClientGone } from './request-body.js';
import { AnswerTooLarge, MAX_ANSWER_BYTES, MAX_ERROR_BYTES, readAll } from './upstream-body.js';
import { invalidResponse, transportFailure, upstreamFailure, type UpstreamFailure } from './upstream-errors.js';

export type StoredCall =
  | { ok: true; status: number; body: Buffer; contentType: string | undefined }
  | { ok: false; failure: UpstreamFailure };

/**
 * `suffix` follows the id: '' | '/input_items' | '/cancel', then the query string. Throws
 * ClientGone when the client left meanwhile.
 */
export async function callStoredResponse(x: Exchange, p: ResolvedProvider, method: string, id: string, suffix: string): Promise<StoredCall> {
  const url = `${p.adapter.url(p.baseUrl, 'generate')}/${encodeURIComponent(id)}${suffix}`;
  let up;
  try {
    up = await x.services.upstreamRequest({ url, method, headers: p.adapter.headers(p.credential, x.req.headers, 'responses'), signal: x.abort.upstreamSignal, ...timeouts(x.config) });
  } catch (err) {
    if (x.abort.aborted) throw new ClientGone();
    const code = (err as { code?: unknown } | null)?.code;
    return { ok: false, failure: transportFailure(p.slug, typeof code === 'string' ? code : 'upstream_unreachable', (err as Error)?.message ?? String(err), p.credential) };
  }
  const contentType = [up.headers['content-type']].flat()[0];
  if (up.status < 200 || up.status >= 300) {
    const buf = await readAll(up.body, MAX_ERROR_BYTES, true).catch(() => Buffer.alloc(0));
    return { ok: false, failure: upstreamFailure(p.slug, up.status, buf, contentType, p.credential) };
  }
  try {
    return { ok: true, status: up.status, body: await readAll(up.body, MAX_ANSWER_BYTES), contentType };
  } catch (err) {
    if (x.abort.aborted) throw new ClientGone();
    const failure = err instanceof AnswerTooLarge ? invalidResponse(p.slug, err.message) : transportFailure(p.slug, 'upstream_reset', 'the upstream connection broke mid-answer', p.credential);
    return { ok: false, failure };
  }
}
