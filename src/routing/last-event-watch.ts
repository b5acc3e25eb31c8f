/**
 * A passthrough relay's look at the end of each tick's bytes, just before they go out: is the last
 * event its stream's terminal event, or an error event the relay edits (failed-response-code.ts,
 * stream-error-wait.ts)? Once per tick, on the pieces about to be written: a two-byte look at their
 * end, a walk back over the last event's lines, a few byte comparisons at its start.
 *
 * An edited event cut across socket reads would go out in two halves, the first before its end
 * shows what it needs. So when a tick ends inside an event whose first bytes name a type the relay
 * edits (or are too few to tell yet), that event is held back and goes out with the tick that
 * completes it, edited then; any other cut event goes out as it comes, at no more cost than the walk
 * back. Nothing is held past HOLD_LIMIT bytes, nor once the stream ends. A client reads an event
 * only once its blank line has come, so holding the first half of one delays nothing it can use.
 *
 * A cut event that goes out leaves its kind behind (or, while too few of its bytes have come to
 * tell, its first bytes): the tick that ends it judges it by that. So a terminal event is seen
 * when its blank line comes alone in the next read, or when it is long enough to span reads
 * (OpenAI's response.completed repeats the whole output), and the client's stream ends with it
 * rather than when the upstream ends its body (never, for one that stalls, until the idle timeout).
 */
import type { Dialect } from '../protocols/hub.js';
import { EDITED_STARTS, endsWithBlankLine, eventKindAt, lastEventStart, mayStartWithOne, type LastEventKind } from './last-event.js';

const LF = 0x0a;
const BLANK_LINE = Buffer.from('\n\n');
/** The most bytes held back: OpenAI's response.failed repeats the request's instructions (Codex's run to tens of KiB). */
export const HOLD_LIMIT = 1024 * 1024;
/** Bytes enough to name any event's type from its start. */
const TYPE_BYTES = 48;

type Piece = string | Buffer;
/** A place in the tick's pieces. */
interface At {
  k: number;
  at: number;
}
/** How the bytes that went out last end: a blank line (the stream's start counts as one), a line end, anything else. */
type Tail = 'blank' | 'lf' | 'other';

export class LastEventWatch {
  private readonly dialect: Dialect;
  private readonly edited: readonly Buffer[];
  /** The start of a cut event, held back (by reference) until the tick that completes it. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private tail: Tail = 'blank';
  /**
   * Where the cut event that went out last begins (the tail is not 'blank' then): the piece it
   * began in, by reference, and where in it; judged only should a later tick end it.
   */
  private cutPiece: Buffer | undefined;
  private cutAt = 0;
  /** Its first bytes instead, copied, when fewer than TYPE_BYTES of them were in that piece. */
  private cutHead: Buffer | undefined;
  /**
   * The kind `take` last returned is a cut event's, begun in bytes that went out already: only
   * its tail is in the pieces, so an edit has nothing to read (the relay skips it).
   */
  endedCut = false;

  constructor(dialect: Dialect) {
    this.dialect = dialect;
    this.edited = EDITED_STARTS[dialect];
  }

  /**
   * This tick's pieces, just before they go out: held bytes go back in front of them, and a cut
   * last event that may be edited is taken out and held (not when `final`: the stream ends). Returns
   * what the last event is when the pieces end with a whole one, which then lies whole in the last
   * piece (where the edit reads it), or that began in bytes that went out already (by what it was
   * then: the edits, which need it whole, find no event to edit in what is left of it). Strings are
   * svc-proxy's own events: they end a tick unjudged.
   */
  take(pending: Piece[], final: boolean): LastEventKind {
    this.endedCut = false;
    let before: Tail = this.tail;
    if (this.heldBytes > 0) {
      if (!this.rejoin(pending, final)) return undefined;
      before = 'blank';
    }
    const n = pending.length;
    if (n === 0) return undefined;
    const last = pending[n - 1]!;
    if (typeof last === 'string') return this.ended('blank');
    const tail = tailOf(pending, before);
    if (tail !== 'blank') {
      if (final) return this.ended(tail);
      const cut = startOf(pending, last.length, before);
      if (cut === undefined || this.edited.length === 0 || !this.mayBeEdited(pending, cut) || !this.hold(pending, cut)) {
        this.noteCut(pending, cut);
        this.tail = tail;
        return undefined;
      }
      // what is left ends where the held event begins: at a blank line
      if (pending.length === 0) return this.ended('blank');
    }
    // a cut event that went out, should this tick's last event be its end
    const { cutPiece, cutAt, cutHead } = this;
    this.forgetCut();
    this.tail = 'blank';
    let end = pending[pending.length - 1] as Buffer;
    if (end.length < 2) {
      // the blank line across the seam of two pieces: the last event ends in the piece before
      const prev = pending[pending.length - 2];
      // (or in the bytes that went out: its blank line's second line end came alone)
      if (prev === undefined) return this.kindOfCut(cutPiece, cutAt, cutHead, pending);
      if (typeof prev === 'string') return undefined;
      end = Buffer.concat([prev, end]);
      pending.splice(pending.length - 2, 2, end);
    }
    const at = startOf(pending, end.length - 2, before);
    // the last event began in bytes that went out: it is the cut one
    if (at === undefined) return this.kindOfCut(cutPiece, cutAt, cutHead, pending);
    if (at.k === pending.length - 1) return eventKindAt(end, at.at, this.dialect);
    // the last event spans pieces (an upstream that writes one in several chunks): one piece for the edit, when it is one
    const kind = eventKindAt(firstBytes(pending, at), 0, this.dialect);
    if (kind !== undefined) joinFrom(pending, at);
    return kind;
  }

  /**
   * Held bytes go back in front of this tick's pieces. True when the held event is whole now (it
   * and what completes it are one piece, first); false when the tick's bytes only continue it
   * (they are held too) or when it goes out as it is (too long, the stream ends, ours follows).
   */
  private rejoin(pending: Piece[], final: boolean): boolean {
    let lastByte = lastByteOf(this.held);
    for (let k = 0; k < pending.length; k++) {
      const p = pending[k]!;
      if (typeof p === 'string') break;
      const end = lastByte === LF && p[0] === LF ? 1 : endOfBlankLine(p);
      if (end !== -1) {
        const whole = Buffer.concat([...this.held, ...(pending.slice(0, k) as Buffer[]), p.subarray(0, end)]);
        pending.splice(0, k + 1, ...(end < p.length ? [whole, p.subarray(end)] : [whole]));
        this.clear();
        return true;
      }
      lastByte = p[p.length - 1]!;
    }
    let bytes = this.heldBytes;
    for (const p of pending) bytes += p.length;
    const stillEdited = this.heldBytes >= TYPE_BYTES || mayStartWithOne(firstBytes([...this.held, ...pending], { k: 0, at: 0 }), 0, this.edited);
    if (final || bytes > HOLD_LIMIT || !stillEdited || pending.some((p) => typeof p === 'string')) {
      pending.unshift(...this.held);
      this.clear();
      this.tail = tailOf(pending, 'other');
      // the held event goes out cut (ours, a string, ends what it was)
      if (this.tail === 'blank') this.forgetCut();
      else this.noteCut(pending, { k: 0, at: 0 });
      return false;
    }
    this.held.push(...(pending as Buffer[]));
    this.heldBytes = bytes;
    pending.length = 0;
    return false;
  }

  /** The event cut at the end of the pieces, from `at`, starts as an event the relay edits would (or may still). */
  private mayBeEdited(pending: Piece[], at: At): boolean {
    const piece = pending[at.k] as Buffer;
    if (piece.length - at.at >= TYPE_BYTES || at.k === pending.length - 1) return mayStartWithOne(piece, at.at, this.edited);
    return mayStartWithOne(firstBytes(pending, at), 0, this.edited);
  }

  /** Take the pieces from `at` out and hold them; false (nothing taken) past HOLD_LIMIT. */
  private hold(pending: Piece[], at: At): boolean {
    let bytes = -at.at;
    for (let k = at.k; k < pending.length; k++) bytes += pending[k]!.length;
    if (bytes > HOLD_LIMIT) return false;
    const first = pending[at.k] as Buffer;
    this.held = [first.subarray(at.at), ...(pending.slice(at.k + 1) as Buffer[])];
    this.heldBytes = bytes;
    pending.length = at.k;
    if (at.at > 0) pending.push(first.subarray(0, at.at));
    return true;
  }

  private clear(): void {
    this.held = [];
    this.heldBytes = 0;
  }

  /** The stream ends on a cut event: nothing is remembered of it. */
  private ended(tail: Tail): undefined {
    this.forgetCut();
    this.tail = tail;
    return undefined;
  }

  /**
   * The pieces end inside an event that goes out cut, begun at `at` (undefined: in bytes that went
   * out before, whose kind is known already, or whose first bytes grow by these).
   */
  private noteCut(pending: Piece[], at: At | undefined): void {
    if (at !== undefined) {
      const piece = pending[at.k] as Buffer | undefined;
      if (piece !== undefined && piece.length - at.at >= TYPE_BYTES) {
        this.cutPiece = piece;
        this.cutAt = at.at;
        this.cutHead = undefined;
      } else {
        this.cutPiece = undefined;
        this.cutHead = firstBytes(pending, at);
      }
      return;
    }
    const head = this.cutHead;
    if (head === undefined || head.length >= TYPE_BYTES) return;
    this.cutHead = firstBytes([head, ...pending], { k: 0, at: 0 });
  }

  /** What the cut event that this tick's bytes end was, by its first bytes (and these, when too few of them went out). */
  private kindOfCut(piece: Buffer | undefined, at: number, head: Buffer | undefined, pending: Piece[]): LastEventKind {
    this.endedCut = true;
    if (piece !== undefined) return eventKindAt(piece, at, this.dialect);
    return head === undefined ? undefined : eventKindAt(firstBytes([head, ...pending], { k: 0, at: 0 }), 0, this.dialect);
  }

  private forgetCut(): void {
    this.cutPiece = undefined;
    this.cutHead = undefined;
  }
}

/**
 * Where the event whose bytes end at `end` of the last piece begins: the walk back over its line
 * ends, on into earlier pieces while it began before them; undefined when it began in bytes that
 * went out already (`before`: how the bytes before the pieces end).
 */
function startOf(pending: Piece[], end: number, before: Tail): At | undefined {
  for (let k = pending.length - 1; k >= 0; k--) {
    const p = pending[k]!;
    if (typeof p === 'string') return { k: k + 1, at: 0 };
    const s = lastEventStart(p, k === pending.length - 1 ? end : p.length);
    if (s !== -1) return { k, at: s };
    const prev = k > 0 ? pending[k - 1]! : undefined;
    if (prev === undefined) {
      if (before === 'blank') return { k, at: 0 };
      return before === 'lf' && p[0] === LF ? { k, at: 1 } : undefined;
    }
    if (typeof prev === 'string' || endsWithBlankLine(prev)) return { k, at: 0 };
    // a blank line across the seam of two pieces
    if (prev[prev.length - 1] === LF && p[0] === LF) return { k, at: 1 };
  }
  return undefined;
}

/** How the pieces end (`previous`: how the bytes before them did). */
function tailOf(pending: Piece[], previous: Tail): Tail {
  const n = pending.length;
  if (n === 0) return previous;
  const p = pending[n - 1]!;
  if (typeof p === 'string') return 'blank';
  const len = p.length;
  if (p[len - 1] !== LF) return 'other';
  if (len >= 2) return p[len - 2] === LF ? 'blank' : 'lf';
  const before = n > 1 ? pending[n - 2]! : undefined;
  const lfBefore = before === undefined ? previous !== 'other' : typeof before === 'string' || before[before.length - 1] === LF;
  return lfBefore ? 'blank' : 'lf';
}

/** Offset just past the first blank line in `p`, or -1. */
function endOfBlankLine(p: Buffer): number {
  const i = p.indexOf(BLANK_LINE);
  return i === -1 ? -1 : i + 2;
}

function lastByteOf(parts: Buffer[]): number | undefined {
  const p = parts[parts.length - 1];
  return p === undefined ? undefined : p[p.length - 1];
}

/** The first TYPE_BYTES bytes (or fewer, all there are) from `at` on. */
function firstBytes(pieces: Piece[], at: At): Buffer {
  const out: Buffer[] = [];
  let have = 0;
  for (let k = at.k; k < pieces.length && have < TYPE_BYTES; k++) {
    const p = pieces[k]!;
    if (typeof p === 'string') break;
    const part = k === at.k ? p.subarray(at.at) : p;
    out.push(part);
    have += part.length;
  }
  return Buffer.concat(out, Math.min(have, TYPE_BYTES));
}

/** The pieces from `at` on become one (what precedes `at` in its piece stays a piece of its own). */
function joinFrom(pending: Piece[], at: At): void {
  const first = pending[at.k] as Buffer;
  const joined = Buffer.concat([first.subarray(at.at), ...(pending.slice(at.k + 1) as Buffer[])]);
  pending.length = at.k;
  if (at.at > 0) pending.push(first.subarray(0, at.at));
  pending.push(joined);
}
