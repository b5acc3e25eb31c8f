/**
 * One call of a generate request's target with a body: its 2xx answer (a stream to a streamed
 * request, else read whole), or the failure and the status it came with (0: no answer).
 * ClientGone when the client left meanwhile.
 */
import type { Dialect } from '../protocols/hub.js';
import { readAll } from '../providers/read-all.js';
import { withRefusedHint } from '../providers/refused-connection-hint.js';
import type { ResolvedProvider } from '../providers/types.js';
import { failureOf, type Answered } from './answer-read.js';
import { streamBodyTimeout, timeouts, type Exchange } from './exchange.js';
import { ClientGone } from './request-body.js';
import type { UpstreamRequest } from './services.js';
import { MAX_ERROR_BYTES, WHOLE_LIMITS } from './upstream-body.js';
import { parseErrorBody, transportFailure, type UpstreamFailure } from './upstream-errors.js';

/** `dialect`: the client's (some of its headers go on to the upstream). */
export async function callUpstream(
  x: Exchange,
  p: ResolvedProvider,
  dialect: Dialect,
  stream: boolean,
  upstreamModel: string,
  body: string | Buffer,
): Promise<{ up: Answered } | { failure: UpstreamFailure; status: number }> {
  const { services, abort, req, config } = x;
  const limits = timeouts(config);
  if (stream) limits.idleTimeoutMs = streamBodyTimeout(config);
  const request: UpstreamRequest = {
    url: p.adapter.url(p.baseUrl, 'generate', upstreamModel),
    method: 'POST',
    headers: p.adapter.headers(p.credential, req.headers, dialect),
    body,
    signal: abort.upstreamSignal,
    ...limits,
  };
  let up: Answered;
  try {
    // a request for a whole answer reads it whole, with no stream made for it
    up = stream ? await services.upstreamRequest(request) : await services.upstreamAnswer(request, WHOLE_LIMITS);
  } catch (err) {
    if (abort.aborted) throw new ClientGone();
    const code = (err as { code?: unknown } | null)?.code;
    // nothing listens there: a local server says how to start it
    const message = withRefusedHint((err as Error)?.message ?? String(err), err, p);
    return { failure: transportFailure(p.slug, typeof code === 'string' ? code : 'upstream_unreachable', message, p.credential), status: 0 };
  }
  if (up.status < 200 || up.status >= 300) {
    const buf = up.kind === 'stream' ? await readAll(up.body, MAX_ERROR_BYTES, true).catch(() => Buffer.alloc(0)) : (up.bytes ?? Buffer.alloc(0));
    if (abort.aborted) throw new ClientGone();
    return { failure: failureOf(p, up, buf, parseErrorBody(buf)), status: up.status };
  }
  return { up };
}
