/**
 * A converted stream is masked event by event (echoed-secrets.ts on each flush), so a credential
 * or a service key the model writes across two deltas ("sk-ant-ap" then "i03-…") would go out
 * unmasked. That holds for every delta the model writes: text, refusals, reasoning, and a tool
 * call's arguments. When a delta ends with what may start a secret (the credential's first
 * characters, at most its length − 1; part of a service key's prefix, or the prefix and its
 * base62 run: service-key-tail.ts), that end is held and put in front of the next delta of the
 * same block, where the whole secret meets the mask. Each block has its own hold, given up when
 * the block ends (or the answer does). The common delta costs a search for the credential's first
 * character in its last characters and a look at its trailing word.
 */
import type { HubEvent } from '../protocols/hub.js';
import { serviceKeyTailStart } from './service-key-tail.js';

/** The deltas whose text the model writes. */
export type ModelDelta = Extract<HubEvent, { type: 'text_delta' | 'refusal_delta' | 'reasoning_delta' | 'arguments_delta' }>;

export function isModelDelta(ev: HubEvent): ev is ModelDelta {
  return ev.type === 'text_delta' || ev.type === 'reasoning_delta' || ev.type === 'arguments_delta' || ev.type === 'refusal_delta';
}

function deltaText(ev: ModelDelta): string {
  return ev.type === 'arguments_delta' ? ev.json : ev.text;
}

function withText(ev: ModelDelta, text: string): ModelDelta {
  return ev.type === 'arguments_delta' ? { ...ev, json: text } : { ...ev, text };
}

/** A delta of this kind and block, carrying just `text`. */
function heldDelta(type: ModelDelta['type'], index: number, text: string): ModelDelta {
  return type === 'arguments_delta' ? { type, index, json: text } : { type, index, text };
}

export class SplitSecretHold {
  /** The credential's forms as streamSecret (redact.ts) passes them; none: service keys only. */
  private readonly secret: readonly string[] | undefined;
  /** Held text by block index, with the kind of its deltas. */
  private readonly held = new Map<number, { type: ModelDelta['type']; text: string }>();

  constructor(secret: readonly string[] | undefined) {
    this.secret = secret;
  }

  get holding(): boolean {
    return this.held.size > 0;
  }

  /**
   * The delta to send now: the held text of its block in front, any start of a secret at its end
   * kept back. The same event when nothing changes; undefined when nothing is left to send.
   */
  pass(ev: ModelDelta): ModelDelta | undefined {
    const own = deltaText(ev);
    let text = own;
    const before = this.held.size > 0 ? this.held.get(ev.index) : undefined;
    if (before !== undefined) {
      text = before.text + text;
      this.held.delete(ev.index);
    }
    const at = this.holdStart(text);
    if (at !== -1) {
      this.held.set(ev.index, { type: ev.type, text: text.slice(at) });
      text = text.slice(0, at);
    }
    if (text === own) return ev;
    // a text delta's logprobs still go out, with whatever text is left
    if (text === '' && (ev.type !== 'text_delta' || ev.logprobs === undefined)) return undefined;
    return withText(ev, text);
  }

  /** The held text of block `index`, given up (the block ends): it was no secret after all. */
  release(index: number): ModelDelta | undefined {
    const held = this.held.get(index);
    if (held === undefined) return undefined;
    this.held.delete(index);
    return heldDelta(held.type, index, held.text);
  }

  /** Every block's held text, given up (the answer ends). */
  releaseAll(): ModelDelta[] {
    const out: ModelDelta[] = [];
    for (const [index, held] of this.held) out.push(heldDelta(held.type, index, held.text));
    this.held.clear();
    return out;
  }

  /** Where the end of `text` may start a secret that the next delta completes, or -1. */
  private holdStart(text: string): number {
    let start = serviceKeyTailStart(text);
    // a form of the credential: raw in text and reasoning, JSON-escaped in a call's arguments
    if (this.secret !== undefined) for (const form of this.secret) start = formStart(text, form, start);
    return start;
  }
}

/** The earliest place before `end` (-1: none) where `text`'s end starts `form`, else `end`: the earliest start keeps the most back. */
function formStart(text: string, form: string, end: number): number {
  const from = text.length - form.length + 1;
  const before = end === -1 ? text.length : end;
  for (let at = text.indexOf(form[0]!, from > 0 ? from : 0); at !== -1 && at < before; at = text.indexOf(form[0]!, at + 1)) {
    if (form.startsWith(text.slice(at))) return at;
  }
  return end;
}
