/**
 * A whole answer, read straight from undici's dispatch handler: for callers that want the answer
 * whole anyway (a non-streamed generation), without the Promise and the stream.Readable that
 * undici's request API makes for each answer (~8 µs of CPU per 1 KB answer here). The route, the
 * timeouts, the abort signal, the second try on a connection closed under the request, the errors
 * and the decoding of a compressed answer are upstreamRequest's (upstream-client.ts).
 */
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import { AnswerTooLarge, readAll } from './read-all.js';
import { exposedHeaders, prepare, retryIfStale, type UpstreamRequest } from './upstream-client.js';
import { onAbort } from '../util/on-abort.js';
import { decodedBody } from './upstream-decoding.js';
import { RequestAbortedError } from './upstream-routes.js';

export interface AnswerLimits {
  /** A 2xx answer larger than this fails (AnswerTooLarge). */
  answerBytes: number;
  /** Any other answer (an error's body) is cut at this size. */
  errorBytes: number;
}

export interface UpstreamAnswer {
  /** Tells it from a streamed answer (UpstreamResponse). */
  kind: 'whole';
  status: number;
  /** As UpstreamResponse's: the safe subset, and on an error status the `date`. */
  headers: Record<string, string | string[] | undefined>;
  receivedDate: string | string[] | undefined;
  /** The whole body, decoded; undefined when reading it failed after the head had come (bodyError). */
  bytes: Buffer | undefined;
  /** Why the body could not be read: the transport's error, as a streamed body would fail with it. */
  bodyError: unknown;
}

/**
 * Send the request and read its answer whole. Rejects, as upstreamRequest does, with an
 * UpstreamError when no answer came; a body that failed after the head resolves with `bodyError`.
 */
export async function upstreamAnswer(req: UpstreamRequest, limits: AnswerLimits): Promise<UpstreamAnswer> {
  const { dispatcher, options, via } = prepare(req);
  const started = performance.now();
  try {
    return await answerOnce(dispatcher, options, req, limits);
  } catch (err) {
    return retryIfStale(err, req, via, started, () => answerOnce(dispatcher, options, req, limits));
  }
}

function answerOnce(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, req: UpstreamRequest, limits: AnswerLimits): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch(options, new WholeAnswer(req, limits, resolve, reject));
  });
}

class WholeAnswer implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** Set once the head came: from then on a failure is the body's. */
  private answer: UpstreamAnswer | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  private limit = 0;
  private truncate = false;
  /** A compressed answer's bytes go through its decoder, read by readAll. */
  private encoded: PassThrough | undefined;
  private settled = false;
  private abortReason: Error | undefined;
  private stopListening: (() => void) | undefined;

  constructor(
    private readonly req: UpstreamRequest,
    private readonly limits: AnswerLimits,
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    if (req.signal) this.stopListening = onAbort(req.signal, () => this.onSignal());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    // an informational answer (100, 103): the real one follows
    if (status < 200) return;
    const answer: UpstreamAnswer = { kind: 'whole', status, headers: exposedHeaders(headers, status), receivedDate: headers.date, bytes: undefined, bodyError: undefined };
    const whole = status < 300;
    this.limit = whole ? this.limits.answerBytes : this.limits.errorBytes;
    this.truncate = !whole;
    const encoding = headers['content-encoding'];
    if (encoding !== undefined && !this.decode(controller, encoding)) return;
    this.answer = answer;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.encoded) {
      if (!this.encoded.destroyed) this.encoded.write(chunk);
      return;
    }
    if (this.settled) return;
    if (this.size + chunk.length <= this.limit) {
      this.size += chunk.length;
      this.chunks.push(chunk);
      return;
    }
    if (this.truncate) {
      this.chunks.push(chunk.subarray(0, this.limit - this.size));
      this.finish(Buffer.concat(this.chunks));
    } else this.failBody(new AnswerTooLarge(this.limit));
    // the rest is not read: the connection goes, not back to the pool half read
    controller.abort(new RequestAbortedError());
  }

  onResponseEnd(): void {
    if (this.encoded) this.encoded.end();
    else if (!this.settled) this.finish(this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    if (this.encoded) this.encoded.destroy(err);
    else if (this.settled) return;
    else if (this.answer) this.failBody(err);
    else {
      this.settled = true;
      this.stopListening?.();
      this.reject(err);
    }
  }

  /** A compressed answer: decoded on its way to readAll. False when its coding is not one we decode. */
  private decode(controller: Dispatcher.DispatchController, encoding: string | string[]): boolean {
    const raw = new PassThrough();
    let decoded;
    try {
      decoded = decodedBody(raw, encoding, this.req.url);
    } catch (err) {
      // as upstreamRequest fails: before anything is read
      this.settled = true;
      this.stopListening?.();
      this.reject(err);
      controller.abort(new RequestAbortedError());
      return false;
    }
    if (decoded === raw) return true;
    this.encoded = raw;
    readAll(decoded, this.limit, this.truncate).then(
      (bytes) => this.finish(bytes),
      (err: unknown) => this.failBody(err),
    );
    // reading stopped early (a limit, a bad coding): the rest of the answer is not read
    raw.once('close', () => controller.abort(new RequestAbortedError()));
    return true;
  }

  private onSignal(): void {
    this.abortReason = new RequestAbortedError();
    this.controller?.abort(this.abortReason);
  }

  private finish(bytes: Buffer): void {
    this.settled = true;
    this.stopListening?.();
    this.answer!.bytes = bytes;
    this.resolve(this.answer!);
  }

  private failBody(err: unknown): void {
    this.settled = true;
    this.stopListening?.();
    this.answer!.bodyError = err;
    this.resolve(this.answer!);
  }
}
