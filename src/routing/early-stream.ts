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

/** The early stream of each response still waiting for a relay or an error (weak: gone with it). */
const waiting = new WeakMap<ServerResponse, EarlyStream>();

// module functions with the stream as argument: no closures made per request
function openEarly(early: EarlyStream): void {
  early.open();
}
function keepAlive(early: EarlyStream): void {
  early.keepAlive();
}

export class EarlyStream {
  private timer: NodeJS.Timeout | undefined;
  private ticker: NodeJS.Timeout | undefined;
  /** The headers went out. */
  isOpen = false;

  /**
   * `failure`: the events that end this stream when it fails before its first event, where the
   * dialect's bare final error event is not all its clients expect (Responses: see generate.ts).
   */
  constructor(
    private readonly res: ServerResponse,
    readonly dialect: Dialect,
    afterMs: number,
    readonly failure?: (err: HubError) => string,
  ) {
    this.timer = setTimeout(openEarly, afterMs, this);
    waiting.set(res, this);
  }

  open(): void {
    this.timer = undefined;
    const { res } = this;
    if (res.headersSent || res.destroyed) return;
    res.writeHead(200, SSE_HEADERS);
    res.write(FIRST);
    this.isOpen = true;
    this.ticker = setInterval(keepAlive, KEEPALIVE_EVERY_MS, this);
  }

  keepAlive(): void {
    if (this.res.destroyed || this.res.writableEnded) this.stop();
    else this.res.write(KEEPALIVE);
  }

  /** No more comments, nor headers still to come (a relay takes over, or the request is over). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.ticker) clearInterval(this.ticker);
    this.timer = this.ticker = undefined;
    if (waiting.get(this.res) === this) waiting.delete(this.res);
  }
}

/**
 * A relay starts writing the stream: its timers stop, opened or not; true when the headers already
 * went out (then the relay must not write them again).
 */
export function takeOverEarlyStream(res: ServerResponse): boolean {
  const early = waiting.get(res);
  if (!early) return false;
  early.stop();
  return early.isOpen;
}

/** The headers went out early and no relay has taken the stream over. */
export function isOpenedEarly(res: ServerResponse): boolean {
  return waiting.get(res)?.isOpen === true;
}

/** End an early-opened stream with the dialect's final error event; false when there is none. */
export function endEarlyStream(res: ServerResponse, err: HubError): boolean {
  const early = waiting.get(res);
  if (!early?.isOpen) return false;
  early.stop();
  if (!res.destroyed && !res.writableEnded) res.end(early.failure ? early.failure(err) : finalErrorEvent(early.dialect, err));
  return true;
}
