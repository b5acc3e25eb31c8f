/**
 * Relaying an upstream event stream to the client on the raw Node response.
 *
 * Nothing is written until the first bytes for the client exist (a request kept waiting may have
 * had its headers and SSE comments already, early-stream.ts; the relay then writes no headers): if
 * the stream opens with an error event (or breaks before anything is sent), the relay reports a
 * "precommit" failure and a group can still fall back. Passthrough holds what precedes a whole
 * first event (comments, an event cut across reads); with holdEnvelope both relays also hold the
 * stream's envelope until its first content. After the first byte, a failure becomes the
 * client dialect's final error event and the status stays 200.
 *
 * Chunks are written as they arrive. When the client reads slowly (`write()` returns false) the
 * upstream body is paused until 'drain', so memory stays flat; undici's body timeout does not
 * run while paused. That timeout bounds the wait for the first chunk: a server that sends its
 * headers at once and its first token after a long prefill (vLLM, mlx_lm) gets headersTimeoutMs
 * for it, as one that sends both late does. The silence between later chunks, when the settings
 * make it shorter, is bounded by a coarse watch started at the first chunk (idle-watch.ts), which
 * costs a counter per chunk and a timer per stream.
 */
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { StreamDecoder, StreamEncoder } from '../protocols/codec.js';
import type { MessageContentAccumulator } from '../protocols/messages/content-accumulate.js';
import type { Dialect, HubError, HubEvent } from '../protocols/hub.js';
import { SseParser, type SseEvent } from '../protocols/sse.js';
import type { LogUsage } from '../log/entry.js';
import type { StreamReasoningCollector } from './reasoning-continuity.js';
import { maskEchoedText } from './echoed-secrets.js';
import { type StreamRedactor, streamRedactor, streamSecret } from './redact.js';
import { isModelDelta, SplitSecretHold } from './split-secret.js';
import { ServiceKeyStreamMask } from './service-key-stream.js';
import { takeOverEarlyStream } from './early-stream.js';
import { IdleWatch } from './idle-watch.js';
import { LiveSet } from './live-set.js';
import type { RequestRecord } from './request-log.js';
import { finalErrorEvent, SSE_HEADERS } from './stream-errors.js';
import { ChatErrorWatch } from './chat-error-watch.js';
import { abortedTailStart } from './chat-abort-tail.js';
import { recodeFailedResponse } from './failed-response-code.js';
import { addWaitToRateLimitEvent } from './stream-error-wait.js';
import { LastEventWatch } from './last-event-watch.js';
import type { FreeformStream } from './freeform-tools.js';
import type { StreamTap } from './stream-tap.js';
import type { StopCutStream } from './stop-cut-stream.js';
import { restoreEventToolName, type ToolNameMap } from './tool-names.js';
import { failureFromParsed, streamEventFailure, transportFailure, withStreamWait, type ParsedError, type UpstreamFailure } from './upstream-errors.js';
import { bodyErrorCode, undecodableMessage } from './upstream-body.js';
import type { AnswerHeaders } from '../providers/retry-wait.js';
import { fromHubUsage, mergeUsage } from './usage.js';
import { PausedParts } from './pause-continue.js';

export type StreamOutcome =
  /** Nothing reached the client: the caller may try the next target. */
  | { kind: 'precommit'; failure: UpstreamFailure }
  | { kind: 'done'; usage?: LogUsage; errorCode?: string; clientGone?: boolean };

export interface RelayOptions {
  res: ServerResponse;
  /** The upstream body being read (the next part's, once a paused turn is continued). */
  body: Readable;
  record: RequestRecord;
  /** The client went away (the upstream request is aborted with it). */
  abort: { readonly aborted: boolean };
  /** Provider slug, for error messages. */
  slug: string;
  /** The stream's 200 headers (its exposed ones): read only when a rate limit arrives in the stream, for when it resets. */
  headers?: AnswerHeaders;
  /** The 200's `Date`: the upstream's clock, on which those reset times are read. */
  date?: string | string[];
  credential: string | undefined;
  /** The client's dialect (final error events). */
  clientDialect: Dialect;
  /**
   * The longest silence between chunks once the first has come, when it is shorter than the
   * upstream body timeout (which bounded the wait for the first); absent when that timeout is it.
   */
  idleTimeoutMs?: number;
  /**
   * A group has targets left: the envelope that opens every stream (message_start, response.created,
   * Chat's role chunk) is held until the first content, so an error event right after it (Anthropic's
   * mid-stream overloaded_error) still lets the group fall back.
   */
  holdEnvelope?: boolean;
}

function bodyErrorMessage(err: unknown, code: string, firstChunkSeen: boolean): string {
  if (code === 'upstream_invalid_response') return undecodableMessage(err) ?? 'the upstream stream could not be read';
  if (code !== 'upstream_timeout') return 'the upstream connection broke before the stream was complete';
  return firstChunkSeen ? 'the upstream went silent mid-stream (settings.idleTimeoutMs)' : 'the upstream sent headers but no event in time (settings.headersTimeoutMs)';
}

/**
 * Streams that have sent their first byte and not ended: a stopping daemon ends them with a final
 * event (endCommittedStreams) instead of cutting their connections. Streams only, not every
 * request: one add and remove per stream.
 */
const committedStreams = new LiveSet<Relay>();

/**
 * End every committed stream (or those of the requests `which` picks) with the client dialect's
 * final error event; returns how many.
 */
export function endCommittedStreams(err: HubError, which?: (record: RequestRecord) => boolean): number {
  let ended = 0;
  for (const relay of committedStreams.items()) {
    if (which && !relay.servesAny(which)) continue;
    relay.interrupt(err);
    ended++;
  }
  return ended;
}

/** After a stream's terminal event, how much more of the upstream body is read before giving up on its connection. */
const REST_LIMIT = 64 * 1024;

function readRestAndDrop(body: Readable): void {
  let left = REST_LIMIT;
  body.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) body.destroy();
  });
  body.resume();
}

function ignoreError(): void {}

function flushRelay(relay: Relay): void {
  relay.endTick();
}

function catchUpRelay(relay: Relay): void {
  relay.catchUp();
}

/** A block start that says nothing yet: its text comes in deltas (a call's name, a search, a redacted block's data are content). */
function isBareBlockStart(ev: HubEvent): boolean {
  if (ev.type !== 'block_start') return false;
  const { block } = ev;
  return block.type === 'text' || (block.type === 'reasoning' && block.origin === undefined);
}

/** The pieces one tick wrote, as one string (converted streams) or one Buffer (passthrough). */
function joinPieces(pieces: (string | Buffer)[]): string | Buffer {
  let allText = true;
  for (const p of pieces) if (typeof p !== 'string') allText = false;
  if (allText) return pieces.join('');
  return Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

abstract class Relay {
  protected readonly o: RelayOptions;
  protected committed = false;
  protected settled = false;
  /** This stream's place in committedStreams while it is there, else -1. */
  private liveTicket = -1;
  /** Written in this tick, not yet handed to the response (see write()). */
  protected pending: (string | Buffer)[] = [];
  /** Upstream chunks so far: the idle watch compares it between its looks. */
  private chunks = 0;
  private watch: IdleWatch | undefined;
  private resolve!: (outcome: StreamOutcome) => void;

  constructor(o: RelayOptions) {
    this.o = o;
  }

  servesAny(which: (record: RequestRecord) => boolean): boolean {
    return which(this.o.record);
  }

  /** End now with a final error event (the daemon is stopping, the request's key was revoked). */
  interrupt(err: HubError): void {
    this.catchUp();
    if (!this.settled && this.committed) this.failLate(err);
  }

  /** Handle what has arrived but waits for the end of this tick (a converted stream's chunks). */
  catchUp(): void {}

  run(): Promise<StreamOutcome> {
    const { body, res } = this.o;
    return new Promise<StreamOutcome>((resolve) => {
      this.resolve = resolve;
      body.on('data', this.onData);
      body.on('end', this.onEnd);
      body.on('error', this.onError);
      res.on('drain', this.onDrain);
      res.on('close', this.onClientClose);
      if (res.destroyed) this.onClientClose();
    });
  }

  protected abstract onData: (chunk: Buffer) => void;
  protected abstract onEnd: () => void;
  /** A transport failure of the upstream body after it started. */
  protected abstract failLate(err: HubError): void;

  /**
   * `keepUpstream`: the stream ended normally at its terminal event, and what the upstream still
   * sends (usually just the chunked-encoding terminator, a moment later) is read and dropped, so
   * its keep-alive connection goes back to the pool instead of being torn down (a new connection
   * and an error object per request otherwise).
   */
  protected settle(outcome: StreamOutcome, keepUpstream = false): void {
    if (this.settled) return;
    this.settled = true;
    if (this.liveTicket !== -1) {
      committedStreams.remove(this.liveTicket, this);
      this.liveTicket = -1;
    }
    this.watch?.stop();
    const { body, res } = this.o;
    body.removeListener('data', this.onData);
    res.removeListener('drain', this.onDrain);
    res.removeListener('close', this.onClientClose);
    if (!body.readableEnded) {
      if (keepUpstream && !body.destroyed) readRestAndDrop(body);
      else body.destroy();
    }
    // an error may still arrive from the destroyed body: keep a listener so it is not unhandled
    this.resolve(outcome);
  }

  /** The stream was relayed to its end (or its final error event). */
  protected done(usage: LogUsage | undefined, errorCode: string | undefined): StreamOutcome {
    const out: StreamOutcome = { kind: 'done' };
    if (usage) out.usage = usage;
    if (errorCode) out.errorCode = errorCode;
    return out;
  }

  /** The upstream body ended before anything reached the client. */
  protected settleEmpty(): void {
    this.settle({
      kind: 'precommit',
      failure: { status: 502, code: 'upstream_stream_incomplete', message: `${this.o.slug}: the upstream ended the stream without any event`, upstreamStatus: 502 },
    });
  }

  /**
   * Go on with another upstream body, the old one having ended (a paused turn continued). The
   * idle watch starts again at its first chunk: the wait for it was the upstream request's.
   */
  protected switchBody(next: Readable): void {
    const old = this.o.body;
    old.removeListener('data', this.onData);
    old.removeListener('end', this.onEnd);
    old.removeListener('error', this.onError);
    old.on('error', ignoreError);
    this.o.body = next;
    next.on('data', this.onData);
    next.on('end', this.onEnd);
    next.on('error', this.onError);
    if (this.o.res.writableNeedDrain) next.pause();
  }

  /** Stop watching for silence until the next body's first chunk (see switchBody). */
  protected pauseWatch(): void {
    this.watch?.stop();
    this.watch = undefined;
    this.chunks = 0;
  }

  /** Count an upstream chunk; the first starts the idle watch (when the settings ask for one). */
  protected counted(): void {
    if (this.chunks++ === 0 && this.o.idleTimeoutMs !== undefined) {
      this.watch = new IdleWatch(this.o.idleTimeoutMs, () => this.chunks, () => this.o.body.isPaused(), this.onSilent);
    }
  }

  private readonly onSilent = (): void => {
    if (this.settled) return;
    this.o.body.destroy(Object.assign(new Error('upstream idle timeout'), { code: 'upstream_timeout' }));
  };

  protected commit(): void {
    if (this.committed) return;
    this.committed = true;
    const { res, record } = this.o;
    const openedEarly = takeOverEarlyStream(res);
    // answered already (a 503 at the drain deadline): nothing more may be written
    if (res.headersSent && !openedEarly) return;
    this.liveTicket = committedStreams.add(this);
    if (!openedEarly) res.writeHead(200, SSE_HEADERS);
    record.firstByte();
  }

  /**
   * Write to the client. undici hands over one upstream socket read as many small body chunks in
   * one go (one per HTTP chunk, often one per event); what is written in that same tick leaves as
   * one write at the end of it (one chunk frame, one syscall) instead of one each. The upstream is
   * paused while the client's buffer is full.
   */
  protected write(data: string | Buffer): void {
    if (this.o.res.destroyed || this.o.res.writableEnded) return;
    this.pending.push(data);
    if (this.pending.length === 1) process.nextTick(flushRelay, this);
  }

  /** The end of a tick with writes (once per tick, not per chunk): they go out. */
  endTick(): void {
    this.flushWrites();
  }

  /** Send what this tick wrote (also right before the response ends). */
  flushWrites(): void {
    const pieces = this.pending;
    if (pieces.length === 0) return;
    this.pending = [];
    const { res, body } = this.o;
    if (res.destroyed || res.writableEnded) return;
    if (!res.write(pieces.length === 1 ? pieces[0]! : joinPieces(pieces))) body.pause();
  }

  protected end(): void {
    this.flushWrites();
    this.o.res.end();
  }

  private readonly onDrain = (): void => {
    if (!this.settled) this.o.body.resume();
  };

  private readonly onClientClose = (): void => {
    if (this.settled || this.o.res.writableFinished || this.awaitingUpstream()) return;
    this.settle({ kind: 'done', clientGone: true });
  };

  /** An upstream call of this stream is under way; it ends it once the client's leaving aborts it. */
  protected awaitingUpstream(): boolean {
    return false;
  }

  private readonly onError = (err: unknown): void => {
    // what arrived before the failure goes first (and may have committed the stream)
    this.catchUp();
    if (this.settled) return;
    if (this.o.abort.aborted) {
      this.settle({ kind: 'done', clientGone: true });
      return;
    }
    const code = bodyErrorCode(err);
    const failure = transportFailure(this.o.slug, code, bodyErrorMessage(err, code, this.chunks > 0), this.o.credential);
    if (!this.committed) {
      this.settle({ kind: 'precommit', failure });
      return;
    }
    this.failLate(failure);
  };
}

/** Same dialect in and out: bytes forwarded untouched; a tap reads usage and error events on the side. */
export class PassthroughRelay extends Relay {
  private readonly tap: StreamTap;
  /** Masks an echoed credential in each of its forms, also one cut across chunks (none when it cannot be searched for). */
  private readonly redactor: StreamRedactor | undefined;
  /** Masks an echoed service key, also one cut across chunks. */
  private readonly serviceKeys = new ServiceKeyStreamMask();
  /** What each tick's bytes end with (endTick), holding back an edited event cut across reads. */
  private readonly lastEvents: LastEventWatch;
  /** Chunks held while the opening event is incomplete (tap.headPending); none once committed. */
  private held: Buffer[] | undefined;
  /** A Chat stream: an upstream error event it ends with is replaced by ours (chat-error-watch.ts). */
  private readonly chatErrors: ChatErrorWatch | undefined;
  /** The stream is ending: the last flush holds nothing back. */
  private ending = false;

  constructor(o: RelayOptions, tap: StreamTap) {
    super(o);
    this.tap = tap;
    this.chatErrors = o.clientDialect === 'chat' ? new ChatErrorWatch() : undefined;
    this.lastEvents = new LastEventWatch(o.clientDialect);
    this.redactor = streamRedactor(o.credential);
  }

  protected onData = (chunk: Buffer): void => {
    this.counted();
    this.tap.push(chunk);
    if (!this.committed) {
      const opening = this.tap.opening;
      if (opening) {
        this.settle({ kind: 'precommit', failure: this.failureOf(opening) });
        return;
      }
      // nothing goes out before the opening event is whole: comments, or an event cut across
      // reads, may still be followed by an opening error, and then a group falls back
      if (this.tap.headPending) {
        (this.held ??= []).push(chunk);
        return;
      }
      this.commit();
      this.releaseHeld();
    }
    this.forward(chunk);
  };

  private forward(chunk: Buffer): void {
    let ready = this.serviceKeys.push(chunk);
    if (this.redactor !== undefined) ready = this.redactor.push(ready);
    if (ready.length > 0) this.write(ready);
  }

  private releaseHeld(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    for (const chunk of held) this.forward(chunk);
  }

  /**
   * The answer is complete once its terminal event is out: the client's stream ends then,
   * whatever the upstream does next (a reset, or silence until the idle timeout, must not turn a
   * finished answer into a failure). Looked at once per tick, of the bytes about to go out: a last
   * event that ends the stream may need amending (amendLastEvent), and one cut across reads that
   * may need it waits for its rest (last-event-watch.ts). One that went out cut (judged by its
   * remembered start) is past amending: only its tail is here.
   */
  override endTick(): void {
    const kind = this.settled ? undefined : this.lastEvents.take(this.pending, false);
    if (kind !== undefined && !this.lastEvents.endedCut) this.amendLastEvent();
    const ending = kind === 'terminal';
    // the last events are read before they go out (once per stream): an aborted answer's `[DONE]` does not
    if (ending) this.tap.finish();
    if (ending && this.tap.aborted) {
      this.endAborted();
      return;
    }
    this.flushWrites();
    if (ending && !this.settled) {
      // what the upstream still sends (the chunked terminator) is read and dropped: the connection stays pooled
      this.endComplete(true);
    }
  }

  /**
   * A Chat stream whose answer finished with "abort" (vLLM/SGLang dropped the request) and ended
   * (`[DONE]`, or the body's end): a failure, as the converted path reports it. The bytes still
   * to go out go up to the aborted chunk (or, when that went out in an earlier read, up to the
   * `[DONE]`), then svc-proxy's final error event, and the stream ends. Looked for only at the
   * stream's end, in the last events the tap reads then anyway: no cost per chunk.
   */
  private endAborted(): void {
    // what the Chat watch holds (the aborted chunk's start, cut across reads) goes back in front
    this.chatErrors?.take(this.pending, true);
    const pieces = this.pending;
    const joined = pieces.length === 1 && typeof pieces[0] !== 'string' ? pieces[0]! : joinPieces(pieces);
    const bytes = typeof joined === 'string' ? Buffer.from(joined) : joined;
    this.pending = [bytes.subarray(0, abortedTailStart(bytes))];
    // what the masks still hold came after the `[DONE]`: it does not go out
    this.serviceKeys.flush();
    this.redactor?.flush();
    this.writeFinalError(this.failureOf(this.tap.error!));
    this.end();
    this.settle(this.done(this.tap.usage, this.upstreamErrorCode()));
  }

  /**
   * The event that ends this tick's bytes, when a client would misread it as the upstream wrote
   * it: a Responses failed response goes out with the code Codex retries on
   * (failed-response-code.ts), a Messages rate-limit error with the wait its 200's headers imply
   * (stream-error-wait.ts).
   */
  private amendLastEvent(): void {
    const dialect = this.o.clientDialect;
    if (dialect === 'responses') recodeFailedResponse(this.pending);
    else if (dialect === 'messages') addWaitToRateLimitEvent(this.pending, this.o.headers, this.o.date);
  }

  /**
   * Chat: when this tick's bytes end with the upstream's error event, what precedes it goes out,
   * then svc-proxy's final error event instead of it (a stable `code`, the message prefixed with
   * the provider's slug, the credential masked), and the stream ends. The upstream's own shapes
   * (OpenRouter's numeric `code`, Gemini's `status`, a local server's `code: null`) never reach the
   * client. A few byte comparisons per tick (chat-error-tail.ts); an event cut across reads is
   * held back until it is whole (chat-error-watch.ts). An error event followed by more than
   * `[DONE]` goes out as it came.
   */
  override flushWrites(): void {
    const watch = this.chatErrors;
    if (watch !== undefined && !this.settled) {
      const error = watch.take(this.pending, this.ending);
      if (error) {
        this.endAtUpstreamError(error);
        return;
      }
    }
    super.flushWrites();
  }

  /** The stream ends: bytes the Chat watch holds back are judged and go out (flushWrites). */
  protected override end(): void {
    this.ending = true;
    super.end();
  }

  /** `pending` holds what preceded the upstream's error event: ours follows it, and the stream ends. */
  private endAtUpstreamError(error: ParsedError): void {
    const failure = this.failureOf(error);
    this.pending.push(finalErrorEvent('chat', failure));
    // what the redactor still holds came after the error event: it does not go out
    this.serviceKeys.flush();
    this.redactor?.flush();
    this.tap.finish();
    this.end();
    this.settle(this.done(this.tap.usage, failure.code));
  }

  /** The upstream's error event as our failure, with the wait its body names (withStreamWait). */
  private failureOf(error: ParsedError): UpstreamFailure {
    return withStreamWait(failureFromParsed(this.o.slug, error, error.impliedStatus ?? 502, this.o.credential), { bodyHeaders: error.limitHeaders, statedWaitMs: error.statedWaitMs }, this.o.headers, this.o.date);
  }

  /** The answer is complete (its terminal event went out): end the client's stream without an error event. */
  private endComplete(keepUpstream: boolean): void {
    this.flushHeld();
    this.end();
    this.settle(this.done(this.tap.usage, this.upstreamErrorCode()), keepUpstream);
  }

  /** The code of the upstream's error event, as a converted stream or an HTTP answer would log it (upstream_overloaded …). */
  private upstreamErrorCode(): string | undefined {
    const error = this.tap.error;
    return error && failureFromParsed(this.o.slug, error, error.impliedStatus ?? 502, this.o.credential).code;
  }

  /**
   * Bytes still held (a cut last event, then what the masks hold: an unfinished last line, the
   * start of a key) go out before the stream ends.
   */
  private flushHeld(): void {
    this.lastEvents.take(this.pending, true);
    let rest = this.serviceKeys.flush();
    if (this.redactor !== undefined) rest = Buffer.concat([this.redactor.push(rest), this.redactor.flush()]);
    if (rest.length > 0) this.write(rest);
  }

  protected onEnd = (): void => {
    if (this.settled) return;
    let terminal: boolean | undefined;
    if (this.committed) {
      // an upstream error event among this tick's bytes is replaced (flushWrites), one the
      // redactor or the Chat watch still holds too: nothing more comes to complete it; the
      // last event may be a failed response that came with the body's end in one tick
      this.ending = true;
      this.lastEvents.take(this.pending, true);
      this.amendLastEvent();
      this.flushHeld();
      // the last events are read before they go out: an aborted answer's end does not (endAborted)
      terminal = this.tap.finish();
      if (terminal && this.tap.aborted) {
        this.endAborted();
        return;
      }
      this.flushWrites();
      if (this.settled) return;
    }
    terminal ??= this.tap.finish();
    if (!this.committed) {
      const error = this.tap.error;
      if (error) {
        this.settle({ kind: 'precommit', failure: this.failureOf(error) });
        return;
      }
      // a whole answer whose last line has no line end (so the opening never looked complete)
      // still goes out; anything else held (comments, envelope events) was no answer
      if (!terminal || this.held === undefined) {
        this.settleEmpty();
        return;
      }
      this.commit();
      this.releaseHeld();
    }
    this.flushHeld();
    let errorCode = this.upstreamErrorCode();
    if (!terminal && !this.tap.error) {
      errorCode = 'upstream_stream_incomplete';
      this.writeFinalError({ status: 502, code: errorCode, message: `${this.o.slug}: the upstream ended the stream before it was complete` });
    }
    this.end();
    this.settle(this.done(this.tap.usage, errorCode));
  };

  protected failLate(err: HubError): void {
    // an upstream error event just before the failure is replaced as it would have been (flushWrites)
    this.ending = true;
    this.flushHeld();
    this.flushWrites();
    if (this.settled) return;
    // the terminal event came in pieces and was not seen as it passed: the answer is complete all the same
    if (this.tap.finish() && !this.tap.error) {
      this.endComplete(false);
      return;
    }
    this.flushHeld();
    this.writeFinalError(err);
    this.end();
    this.settle(this.done(this.tap.usage, err.code));
  }

  private writeFinalError(err: HubError): void {
    const sep = this.tap.endsAtEventBoundary() ? '' : '\n\n';
    const announced = this.o.clientDialect === 'responses' ? this.tap.announced : undefined;
    this.write(sep + finalErrorEvent(this.o.clientDialect, err, this.tap.lastSequenceNumber() + 1, announced));
  }
}

/** How a stream that pauses (`pause_turn`) is continued: pause-continue.ts. */
export interface StreamContinuation {
  /** The paused content so far, rebuilt from the upstream's events. */
  content: MessageContentAccumulator;
  /** Continuations left. */
  left: number;
  /** The next part's upstream body, or why there is none; undefined when the client left meanwhile. */
  next(content: readonly unknown[]): Promise<{ body: Readable } | { failure: UpstreamFailure } | undefined>;
  /** A decoder for the next part. */
  decoder(): StreamDecoder;
}

export interface ConvertOptions {
  decoder: StreamDecoder;
  encoder: StreamEncoder;
  toolNames: ToolNameMap | undefined;
  /** Turns calls of freeform tools back into freeform calls (one event may become several). */
  freeform: FreeformStream | undefined;
  collector: StreamReasoningCollector | undefined;
  /** Set when the upstream may pause the turn (a Messages upstream offered a server tool). */
  continuation?: StreamContinuation;
  /** The upstream may write its error as an `error:` line (a Chat server: llama-server does). */
  errorField?: boolean;
  /** Stop sequences the upstream could not take, held here (only requests with such stops). */
  stops?: StopCutStream;
}

/** Different dialects: SSE parser → upstream decoder → hub events → client encoder, chunk by chunk. */
export class ConvertedRelay extends Relay {
  private readonly c: ConvertOptions;
  private parser: SseParser;
  private decoder: StreamDecoder;
  /** With a continuation: the parts of a paused turn joined into one answer. */
  private readonly parts: PausedParts | undefined;
  /** The current part paused: its finish is held until the turn goes on or cannot. */
  private paused: Extract<HubEvent, { type: 'finish' }> | undefined;
  /** The continuation's upstream call is under way. */
  private continuing = false;
  /** Upstream chunks that arrived in this tick, parsed together at its end (see onData). */
  private inbox: Buffer[] = [];
  /** Client bytes produced from the current upstream chunk. */
  private out = '';
  /** A terminal event (finish or error) was rendered. */
  private ended = false;
  /** An event past the envelope (start, usage) was rendered: with holdEnvelope, the stream may commit. */
  private opened = false;
  private usage: LogUsage | undefined;
  private errorCode: string | undefined;
  /** The credential's forms, masked in what is written (with any service key) when echoed whole. */
  private readonly secret: readonly string[] | undefined;
  /** Deltas ending in what may start the credential or a service key, held for their block's next (split-secret.ts). */
  private readonly split: SplitSecretHold;

  constructor(o: RelayOptions, c: ConvertOptions) {
    super(o);
    this.c = c;
    this.secret = streamSecret(o.credential);
    this.split = new SplitSecretHold(this.secret);
    this.decoder = c.decoder;
    this.parser = new SseParser(this.onEvent, undefined, { errorField: c.errorField === true });
    if (c.continuation) this.parts = new PausedParts();
  }

  /**
   * undici hands one upstream socket read over as one chunk per HTTP chunk, usually one event
   * each, all in one tick. They are parsed together at the end of that tick: one UTF-8 decode and
   * one pass over their lines instead of one per event (the bytes written are the same, and leave
   * in that same tick as before).
   */
  protected onData = (chunk: Buffer): void => {
    this.counted();
    this.inbox.push(chunk);
    if (this.inbox.length === 1) process.nextTick(catchUpRelay, this);
  };

  /** Parse, convert and write what arrived in this tick (also right before the end or a failure). */
  override catchUp(): void {
    const chunks = this.inbox;
    if (chunks.length === 0) return;
    this.inbox = [];
    if (this.settled) return;
    try {
      this.parser.push(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    } catch (err) {
      // an event past the parser's bound (SseEventTooLarge): the stream cannot go on
      this.handle(this.malformed(err));
    }
    this.flush();
  }

  protected onEnd = (): void => {
    this.catchUp();
    if (this.settled) return;
    if (!this.ended && !this.paused) {
      this.parser.end();
      if (!this.ended && !this.settled && !this.paused) {
        let closing: HubEvent[];
        try {
          closing = this.decoder.end();
        } catch (err) {
          closing = [this.malformed(err)];
        }
        for (const ev of closing) this.handle(ev);
      }
    }
    if (this.settled) return;
    this.releaseHeld();
    if (this.paused) {
      this.flush();
      void this.continueTurn();
      return;
    }
    if (!this.committed && !this.hasAnswer()) {
      this.settleEmpty();
      return;
    }
    this.flush();
    this.finish();
  };

  /** Output for the client exists beyond what holdEnvelope keeps back. */
  private hasAnswer(): boolean {
    return this.out !== '' && (this.opened || this.o.holdEnvelope !== true);
  }

  /** The turn paused: ask the upstream to go on, and relay its next part as more of this answer. */
  private async continueTurn(): Promise<void> {
    const cont = this.c.continuation!;
    const held = this.paused!;
    this.pauseWatch();
    cont.left--;
    let next: Awaited<ReturnType<StreamContinuation['next']>>;
    this.continuing = true;
    try {
      next = await cont.next(cont.content.blocks());
    } catch (err) {
      // a bug of ours must end this stream, not the daemon (nothing awaits this promise)
      const message = err instanceof Error ? err.message : String(err);
      next = { failure: { status: 502, code: 'upstream_error', message: `${this.o.slug}: the paused turn could not be continued (${message})`, upstreamStatus: 502 } };
    } finally {
      this.continuing = false;
    }
    if (this.settled) {
      if (next && 'body' in next) next.body.destroy();
      return;
    }
    if (next === undefined) {
      this.settle({ kind: 'done', clientGone: true });
      return;
    }
    if ('failure' in next) {
      const { failure } = next;
      if (!this.committed && !this.hasAnswer()) this.settle({ kind: 'precommit', failure });
      else this.failLate({ status: failure.status, code: failure.code, message: failure.message });
      return;
    }
    this.parts!.paused(held);
    this.paused = undefined;
    this.decoder = cont.decoder();
    this.parser = new SseParser(this.onEvent, undefined, { errorField: this.c.errorField === true });
    this.switchBody(next.body);
  }

  protected override awaitingUpstream(): boolean {
    return this.continuing;
  }

  protected failLate(err: HubError): void {
    // already prefixed and redacted (transportFailure)
    this.handle({ type: 'error', error: err }, true);
    this.flush();
  }

  private readonly onEvent = (ev: SseEvent): void => {
    if (this.ended || this.settled || this.paused) return;
    let events: HubEvent[];
    try {
      events = this.decoder.push(ev);
    } catch (err) {
      events = [this.malformed(err)];
    }
    if (this.parts) {
      this.c.continuation!.content.push(ev);
      events = this.joinParts(events);
    }
    for (let i = 0; i < events.length && !this.ended && !this.settled; i++) this.handle(events[i]!);
  };

  /** Events of a turn that may pause: shifted into the answer so far; a pause that can be continued is held. */
  private joinParts(events: HubEvent[]): HubEvent[] {
    const out: HubEvent[] = [];
    for (const ev of events) {
      const mapped = this.parts!.map(ev);
      if (mapped === undefined) continue;
      if (mapped.type === 'finish' && mapped.stopReason === 'pause_turn' && this.c.continuation!.left > 0) {
        this.paused = mapped;
        // the usage so far still counts if the turn cannot go on
        if (mapped.usage) this.usage = mergeUsage(this.usage, fromHubUsage(mapped.usage));
        break;
      }
      out.push(mapped);
    }
    return out;
  }

  private malformed(err: unknown): HubEvent {
    const detail = err instanceof Error ? err.message : String(err);
    return { type: 'error', error: { status: 502, code: 'upstream_invalid_response', message: `the upstream sent a malformed stream event (${detail})` } };
  }

  private handle(ev: HubEvent, ours = false): void {
    if (this.c.stops === undefined) this.handleCut(ev, ours);
    else for (const each of this.c.stops.map(ev)) this.handleCut(each, ours);
  }

  private handleCut(ev: HubEvent, ours: boolean): void {
    if (this.c.freeform === undefined) this.handleOne(ev, ours);
    else for (const each of this.c.freeform.map(ev)) this.handleOne(each, ours);
  }

  private handleOne(ev: HubEvent, ours: boolean): void {
    if (this.ended || this.settled) return;
    if (isModelDelta(ev)) {
      const passed = this.split.pass(ev);
      if (passed === undefined) return;
      ev = passed;
    } else if (this.split.holding) {
      // a block's held text goes out before its end (a thinking block's proof comes at its end)
      if (ev.type === 'block_stop' || ev.type === 'reasoning_origin') this.releaseHeld(ev.index);
      else if (ev.type === 'finish' || ev.type === 'error') this.releaseHeld();
    }
    this.render(ev, ours);
  }

  private render(ev: HubEvent, ours: boolean): void {
    if (this.ended || this.settled) return;
    if (ev.type === 'error') {
      // the upstream's own error event is classified as its HTTP error would be (a prompt too long)
      const failure: UpstreamFailure = ours ? { ...ev.error, upstreamStatus: ev.error.status } : streamEventFailure(this.o.slug, ev.error, this.o.credential, this.o.headers, this.o.date);
      const error: HubError = failure;
      if (!this.committed) {
        if (!this.hasAnswer()) {
          // nothing for the client yet: the attempt failed as a whole and a group may fall back
          this.settle({ kind: 'precommit', failure });
          return;
        }
        // events before it produced output (in the same tick): the answer is under way, however
        // the upstream's bytes were cut into reads
        this.commit();
      }
      this.ended = true;
      this.errorCode = error.code;
      this.out += this.c.encoder.encode({ type: 'error', error });
      return;
    }
    if (this.c.toolNames) restoreEventToolName(ev, this.c.toolNames);
    if (this.c.collector) this.c.collector.onEvent(ev);
    const usage = ev.type === 'usage' || ev.type === 'start' || ev.type === 'finish' ? ev.usage : undefined;
    if (usage) this.usage = mergeUsage(this.usage, fromHubUsage(usage));
    if (ev.type === 'finish') this.ended = true;
    // a text or reasoning block opened with nothing in it yet (Anthropic opens its first before its ping) is envelope too
    if (!this.opened && ev.type !== 'start' && ev.type !== 'usage' && !isBareBlockStart(ev)) this.opened = true;
    this.out += this.c.encoder.encode(ev);
  }

  /** Text held for a secret that did not follow goes out as the text it was: block `index`'s, or every block's. */
  private releaseHeld(index?: number): void {
    if (!this.split.holding) return;
    if (index === undefined) for (const ev of this.split.releaseAll()) this.render(ev, false);
    else {
      const ev = this.split.release(index);
      if (ev !== undefined) this.render(ev, false);
    }
  }

  private flush(): void {
    if (this.settled) return;
    if (this.hasAnswer()) {
      // an error that arrives before anything was written is still a precommit failure (handled
      // in handle()); the first non-empty output commits the stream
      this.commit();
      const data = maskEchoedText(this.out, this.secret);
      this.out = '';
      this.write(data);
    }
    if (this.ended) this.finish();
  }

  private finish(): void {
    if (this.settled) return;
    this.end();
    // an answer ended at a stop sequence drops the upstream's request: the rest is not wanted
    const keepUpstream = this.errorCode === undefined && !this.o.res.destroyed && this.c.stops?.cut !== true;
    this.settle(this.done(this.usage, this.errorCode), keepUpstream);
  }
}
