/**
 * A converted stream whose target could not take the request's stop sequences: the text is
 * relayed delta by delta, except an end of it that may begin a stop sequence (at most the longest
 * stop's length − 1 characters), held until the next delta of its block shows whether it does.
 * A stop sequence cut across deltas is found all the same. At the first one the text before it
 * goes out, its block ends, and the answer ends as a stop sequence; nothing the upstream sends
 * after counts (the relay drops its request: `cut`), so the finish carries an estimate of the
 * usage (stop-cut-usage.ts). Only requests with such stops have one.
 */
import type { HubEvent, TokenLogprob } from '../protocols/hub.js';
import { firstStop, startOfStopAtEnd, tokensBefore } from './stop-match.js';
import type { CutUsage } from './stop-cut-usage.js';

type TextDelta = Extract<HubEvent, { type: 'text_delta' }>;

export class StopCutStream {
  private readonly stops: readonly string[];
  /** Text held by block index: it may begin a stop sequence. */
  private readonly held = new Map<number, string>();
  /** A stop sequence was met: the answer ended with it. */
  cut = false;

  /** What the finish at a cut says was used (the upstream says nothing then). */
  private readonly usage: CutUsage | undefined;

  constructor(stops: readonly string[], usage?: CutUsage) {
    this.stops = stops;
    this.usage = usage;
  }

  /** The events to relay for `ev` (none once the answer ended at a stop). */
  map(ev: HubEvent): HubEvent[] {
    if (this.cut) return [];
    const out = this.mapLive(ev);
    // the cut's own events were seen as it was made (text())
    if (this.usage !== undefined && !this.cut) for (const each of out) this.usage.see(each);
    return out;
  }

  private mapLive(ev: HubEvent): HubEvent[] {
    switch (ev.type) {
      case 'text_delta':
        return this.text(ev);
      case 'block_stop':
        return this.release(ev.index, [ev]);
      case 'finish':
      case 'error':
        return this.releaseAll([ev]);
      default:
        return [ev];
    }
  }

  private text(ev: TextDelta): HubEvent[] {
    const before = this.held.get(ev.index);
    const text = before === undefined ? ev.text : before + ev.text;
    const match = firstStop(text, this.stops);
    if (match !== undefined) {
      this.cut = true;
      this.held.clear();
      const out: HubEvent[] = [];
      // this delta's tokens that begin before the stop (held text's went out with their deltas)
      const logprobs = ev.logprobs && tokensBefore(ev.logprobs, match.at - (before?.length ?? 0));
      if (match.at > 0) out.push(delta(ev.index, text.slice(0, match.at), logprobs));
      const finish: HubEvent = { type: 'finish', stopReason: 'stop_sequence', stopSequence: match.stop };
      if (this.usage !== undefined) {
        if (match.at > 0) this.usage.see(out[0]!);
        finish.usage = this.usage.atCut();
      }
      out.push({ type: 'block_stop', index: ev.index }, finish);
      return out;
    }
    const hold = startOfStopAtEnd(text, this.stops);
    if (hold === 0) {
      if (before !== undefined) this.held.delete(ev.index);
      return before === undefined ? [ev] : [delta(ev.index, text, ev.logprobs)];
    }
    this.held.set(ev.index, text.slice(text.length - hold));
    const now = text.slice(0, text.length - hold);
    // a delta's logprobs go out with the text sent now, or alone when all of it is held
    return now === '' && ev.logprobs === undefined ? [] : [delta(ev.index, now, ev.logprobs)];
  }

  /** Block `index` ends: what it held was no stop sequence. */
  private release(index: number, then: HubEvent[]): HubEvent[] {
    const held = this.held.get(index);
    if (held === undefined) return then;
    this.held.delete(index);
    return [delta(index, held, undefined), ...then];
  }

  private releaseAll(then: HubEvent[]): HubEvent[] {
    if (this.held.size === 0) return then;
    const out: HubEvent[] = [];
    for (const [index, held] of this.held) out.push(delta(index, held, undefined));
    this.held.clear();
    return [...out, ...then];
  }
}

function delta(index: number, text: string, logprobs: TokenLogprob[] | undefined): TextDelta {
  return logprobs === undefined ? { type: 'text_delta', index, text } : { type: 'text_delta', index, text, logprobs };
}
