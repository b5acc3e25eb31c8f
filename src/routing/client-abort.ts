/**
 * The "client went away" signal of one request.
 *
 * A Node AbortController costs several microseconds per request (EventTarget machinery), a
 * noticeable share of a passthrough request's CPU. undici takes an EventEmitter with `aborted`
 * as a request signal as well, so the hot path uses this small emitter; code that needs a real
 * AbortSignal (model catalog, token counting) gets one bridged on demand.
 */
import { EventEmitter } from 'node:events';
import type { AbortEmitter } from '../providers/upstream-client.js';

export class ClientAbort extends EventEmitter {
  aborted = false;
  readonly reason: unknown = undefined;
  private controller: AbortController | undefined;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
    this.emit('abort');
  }

  /** For upstreamRequest → undici, which accepts EventEmitter signals (`once('abort')`, `aborted`). */
  get upstreamSignal(): AbortEmitter {
    return this;
  }

  /** A real AbortSignal, for consumers that use the AbortSignal API. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }
}
