/**
 * Response headers for a streamed request whose upstream has not sent its first event yet.
 *
 * Many clients give up on a request that has no response headers after a fixed time and send it
 * again: the OpenAI SDK after 10 minutes (Cline, scripts), Qwen Code after 120 s, Crush after 60
 * s. A local model reading a long prompt can take longer, and the daemon sends its headers only
 * with the upstream's first event, so that a group can still fall back. After
 * `settings.streamHeadersAfterMs` of waiting, the stream's 200 and SSE headers go out with an SSE
 * comment, and another comment every 15 s (clients whose read timeout counts bytes see them).
 * Comments are no events: a target that then fails still lets the next one answer. What can no
 * longer be said is an HTTP status: a failure from then on reaches the client as the dialect's
 * final error event (stream-errors.ts), as one after the first event does. Quick refusals (429,
 * 400, auth) come back long before, with their status.
 */
import type { ServerResponse } from 'node:http';
import type { Dialect, HubError } from '../protocols/hub.js';
import { finalErrorEvent, SSE_HEADERS } from './stream-errors.js';

const FIRST = ': waiting for the model\n\n';
const KEEPALIVE = ':\n\n';
const KEEPALIVE_EVERY_MS = 15_000;

/** Responses whose headers went out early, and whose stream no relay has taken over yet. */
const opened = new WeakMap<ServerResponse, EarlyStream>();

export class EarlyStream {
  private timer: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly res: ServerResponse,
    readonly dialect: Dialect,
    afterMs: number,
  ) {
    this.timer = setTimeout(this.open, afterMs);
  }

  private readonly open = (): void => {
    this.timer = undefined;
    const { res } = this;
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, SSE_HEADERS);
    res.write(FIRST);
    opened.set(res, this);
    this.ticker = setInterval(this.keepAlive, KEEPALIVE_EVERY_MS);
  };

  private readonly keepAlive = (): void => {
    if (this.res.destroyed || this.res.writableEnded) this.stop();
    else this.res.write(KEEPALIVE);
  };

  /** No more comments (a relay takes the stream over, or the request is over). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.ticker) clearInterval(this.ticker);
    this.timer = this.ticker = undefined;
  }
}

/**
 * A relay starts writing the stream: true when the headers already went out early (then it must
 * not write them again). The comments stop either way.
 */
export function takeOverEarlyStream(res: ServerResponse): boolean {
  const early = opened.get(res);
  if (!early) return false;
  early.stop();
  opened.delete(res);
  return true;
}

/** The headers went out early and no relay has taken the stream over. */
export function isOpenedEarly(res: ServerResponse): boolean {
  return opened.has(res);
}

/** End an early-opened stream with the dialect's final error event. */
export function endEarlyStream(res: ServerResponse, err: HubError): void {
  const early = opened.get(res);
  if (!early) return;
  early.stop();
  opened.delete(res);
  if (!res.destroyed && !res.writableEnded) res.end(finalErrorEvent(early.dialect, err));
}
