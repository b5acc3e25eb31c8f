/**
 * The passthrough Chat relay's watch for an upstream error event at the end of a stream
 * (chat-error-tail.ts says what is replaced and why), across ticks. Each tick's bytes get the
 * cheap look first (lastEventVerdict: a few byte comparisons, the usual verdict being "a choice
 * delta, no error"). Only when it cannot tell are the bytes read again here, event by event from
 * the end: an error event cut across socket reads, CRLF line ends, `id:`/`retry:` lines, a
 * `[DONE]` in a piece of its own.
 *
 * An error event cut across reads would be half out before its end shows what it is. So an
 * incomplete last event is held back until the next tick completes it (or the stream ends), and
 * with it an error event right before it when it may be the `[DONE]` that closes the stream.
 * A comment is never held, nor more than HOLD_LIMIT bytes: an upstream's error event is a few
 * hundred bytes, and a longer event goes out as it comes.
 */
import { lastEventVerdict, readChatError, readNamedError } from './chat-error-tail.js';
import { describeStreamError, type ParsedError } from './upstream-errors.js';

/** The most bytes held back from the client while the last event is incomplete. */
export const HOLD_LIMIT = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const BLANK = Buffer.from('\n\n');
const ERROR_WORD = Buffer.from('error');
const DONE_WORD = Buffer.from('[DONE]');

type Verdict = { error: ParsedError } | 'done' | 'none';

export class ChatErrorWatch {
  /** The start of an event (or two) held back from the client. */
  private held: Buffer | undefined;
  /** The last bytes that went out (is what follows at an event boundary?); undefined at the start. */
  private previous: Buffer | string | undefined;

  /**
   * This tick's pieces, just before they go out. When they end with the upstream's error event
   * (a `[DONE]` after it allowed), `pending` is cut to what precedes it and the error is returned.
   * An incomplete last event is taken out of `pending` and held; held bytes go back in front of
   * the next tick's. `final`: the stream ends, nothing more comes and nothing is held. Strings
   * are svc-proxy's own events: they go out as they are.
   */
  take(pending: (string | Buffer)[], final: boolean): ParsedError | undefined {
    const n = pending.length;
    if (this.held === undefined) {
      if (n === 0) return undefined;
      const last = pending[n - 1]!;
      if (typeof last === 'string') {
        this.previous = last;
        return undefined;
      }
      const verdict = lastEventVerdict(last, n > 1 ? pending[n - 2] : this.previous);
      if (verdict === 'none') {
        this.previous = last;
        return undefined;
      }
      if (verdict !== 'unsure') {
        pending.length = n - 1;
        if (verdict.at > 0) pending.push(last.subarray(0, verdict.at));
        return verdict.error;
      }
    }
    return this.reread(pending, final);
  }

  /** The slow look: the tick's bytes (held ones first) joined from where the last events begin. */
  private reread(pending: (string | Buffer)[], final: boolean): ParsedError | undefined {
    const held = this.held;
    this.held = undefined;
    const parts: (string | Buffer)[] = held ? [held, ...pending] : pending.slice();
    pending.length = 0;
    for (const p of parts) {
      if (typeof p === 'string') {
        // our own final event follows: whatever came before it goes out unjudged
        pending.push(...parts);
        this.previous = parts[parts.length - 1];
        return undefined;
      }
    }
    for (let k = parts.length - 1; k >= 0; k--) {
      // what goes before the window: the bytes before it, or a boundary (held bytes begin an event)
      const context = k > 0 ? tailBytes(parts[k - 1]!) : held ? BLANK : this.previous === undefined ? BLANK : tailBytes(this.previous);
      const buf = Buffer.concat([context, ...(parts.slice(k) as Buffer[])]);
      const read = readTail(buf, context.length, final);
      if (read === 'more' && k > 0) continue;
      for (let i = 0; i < k; i++) pending.push(parts[i]!);
      if (read === 'more') {
        // the last event began in what went out already: it goes on out
        pending.push(buf.subarray(context.length));
        this.previous = buf;
        return undefined;
      }
      if (read.out > context.length) pending.push(buf.subarray(context.length, read.out));
      if (read.error) return read.error;
      if (read.out < buf.length) this.held = buf.subarray(read.out);
      if (pending.length > 0) this.previous = pending[pending.length - 1];
      return undefined;
    }
    return undefined;
  }
}

/**
 * What of `buf` goes out (up to `out`), and whether an error event begins there (dropped with
 * what follows) or the rest is held; 'more' when the events to judge begin before `buf`. `base`:
 * where the tick's bytes begin (before it, the context).
 */
function readTail(buf: Buffer, base: number, final: boolean): { out: number; error?: ParsedError } | 'more' {
  const len = buf.length;
  const tail = eventStart(buf, len);
  if (tail < base) return 'more';
  let lastEnd = len;
  if (tail < len) {
    if (final) {
      // the stream ends here: a last event without its blank line still counts
      const verdict = judge(buf, tail, len);
      if (typeof verdict === 'object') return { out: tail, error: verdict.error };
      if (verdict === 'none') return { out: len };
    } else {
      if (buf[tail] === 0x3a) return { out: len };
      let holdFrom = tail;
      if (tail > base && mayBeDone(buf, tail)) {
        // an error event right before the incomplete one is held with it: that may be the `[DONE]` after it
        const start = eventStart(buf, lineEndBefore(buf, tail));
        if (start >= base && typeof judge(buf, start, tail) === 'object') holdFrom = start;
      }
      return len - holdFrom > HOLD_LIMIT ? { out: len } : { out: holdFrom };
    }
    lastEnd = tail;
  }
  if (lastEnd === base) return { out: len };
  const start = eventStart(buf, lineEndBefore(buf, lastEnd));
  if (start < base) return 'more';
  let verdict = judge(buf, start, lastEnd);
  let at = start;
  if (verdict === 'done') {
    if (start === base) return 'more';
    at = eventStart(buf, lineEndBefore(buf, start));
    if (at < base) return 'more';
    verdict = judge(buf, at, start);
  }
  return typeof verdict === 'object' ? { out: at, error: verdict.error } : { out: len };
}

/**
 * Where the event that holds the bytes before `end` begins: just after the last blank line
 * (LF LF, or LF CR LF) that ends before `end`; -1 when there is none.
 */
function eventStart(buf: Buffer, end: number): number {
  let i = end - 1;
  while (i >= 1) {
    const lf = buf.lastIndexOf(LF, i);
    if (lf < 1) return -1;
    if (buf[lf - 1] === LF || (buf[lf - 1] === CR && lf >= 2 && buf[lf - 2] === LF)) return lf + 1;
    i = lf - 1;
  }
  return -1;
}

/** For an event that ends at `end` (just after its blank line): where its last line's end is. */
function lineEndBefore(buf: Buffer, end: number): number {
  const blank = end - 1;
  return buf[blank - 1] === CR ? blank - 2 : blank - 1;
}

/** The event in buf[start, end): an error, `[DONE]`, or neither. Read whole only when it could be one of them. */
function judge(buf: Buffer, start: number, end: number): Verdict {
  const word = buf.indexOf(ERROR_WORD, start);
  const done = word !== -1 && word < end ? -1 : buf.indexOf(DONE_WORD, start);
  if ((word === -1 || word >= end) && (done === -1 || done >= end)) return 'none';
  const fields = readFields(buf.toString('utf8', start, end));
  if (fields.error !== undefined) {
    let value: unknown;
    try {
      value = JSON.parse(fields.error);
    } catch {
      return 'none';
    }
    const error = describeStreamError({ error: value }, 'chat');
    return error ? { error } : 'none';
  }
  if (fields.data === undefined) return 'none';
  if (fields.event === 'error') {
    const error = readNamedError(fields.data);
    return error ? { error } : 'none';
  }
  if (fields.data === '[DONE]') return 'done';
  // the cheap look's rule: an `error` member first, or a choice that finished with "error" last
  if (!fields.data.startsWith('{"error"') && !fields.data.endsWith('"error"}]}')) return 'none';
  const error = readChatError(fields.data);
  return error ? { error } : 'none';
}

/** An event's fields as SSE reads them: `data` lines joined, llama-server's `error:` line; `id:`, `retry:` and comments ignored. */
function readFields(text: string): { event?: string; data?: string; error?: string } {
  const out: { event?: string; data?: string; error?: string } = {};
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    const value = line.charCodeAt(colon + 1) === 0x20 ? line.slice(colon + 2) : line.slice(colon + 1);
    if (name === 'data') out.data = out.data === undefined ? value : `${out.data}\n${value}`;
    else if (name === 'event') out.event = value;
    else if (name === 'error') out.error = value;
  }
  return out;
}

const DONE_EVENTS = [Buffer.from('data: [DONE]'), Buffer.from('data:[DONE]')];

/** The incomplete event from `start` may still become a `data: [DONE]` (after `id:` or `retry:` lines). */
function mayBeDone(buf: Buffer, start: number): boolean {
  let at = start;
  while (buf[at] === 0x69 || buf[at] === 0x72) {
    const lf = buf.indexOf(LF, at);
    if (lf === -1) return true;
    at = lf + 1;
  }
  return DONE_EVENTS.some((done) => {
    const n = Math.min(done.length, buf.length - at);
    for (let i = 0; i < n; i++) if (buf[at + i] !== done[i]) return false;
    return true;
  });
}

/** The last few bytes of what went before (enough to see a blank line that ends there). */
function tailBytes(p: Buffer | string): Buffer {
  const b = typeof p === 'string' ? Buffer.from(p.slice(-3)) : p;
  return b.length > 3 ? b.subarray(b.length - 3) : b;
}
