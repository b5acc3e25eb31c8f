/**
 * Reasoning that a Chat server put in `content` as a leading `<think>…</think>` instead of a
 * reasoning field (vLLM without a reasoning parser, llama.cpp with `--reasoning-format none`, LM
 * Studio, DeepSeek-R1 hosts, MiniMax M2). Only the start of the content counts, after optional
 * whitespace: a tag later on is text. Fed piece by piece, it holds back only what may still turn out
 * to be a tag: before the decision the whitespace and a prefix of `<think>`, inside the block a
 * prefix of `</think>`. The text after `</think>` loses its leading whitespace. A block of whitespace
 * alone (Qwen3 with thinking off sends `<think>\n\n</think>`) gives no reasoning: until its first
 * other character, the block's whitespace is held too.
 *
 * Some chat templates end the prompt with `<think>\n`, so the model writes only the closing tag
 * (`startsInside`, chosen by the provider for those model ids). Then the content is reasoning up to
 * the first `</think>` and text after it; a content that still opens with `<think>` is read as above.
 * A block the prompt opened that never closes stays reasoning when the answer was cut off (max
 * tokens, a filter) or went on to a tool call. But a model cannot end its turn while still
 * thinking: one that ended it (finish `stop`) without `</think>` never was (thinking off, or a
 * server that removed the reasoning), so flush() then gives the whole content back as text and says
 * so (`reasoningWasAnswer`); a stream, which already sent it as reasoning, sends it again as text.
 * For that the reasoning released from such a block is kept until the block closes (bounded by the
 * answer). When a reasoning field comes first the decoders settle the splitter before any content:
 * the content is then the answer, with or without the option.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export interface ThinkSplit {
  reasoning: string;
  text: string;
  /** flush() only: the reasoning released so far was the answer, and `text` is all of it. */
  reasoningWasAnswer?: boolean;
}

type Phase = 'lead' | 'inside' | 'gap' | 'done';

const NOTHING: ThinkSplit = { reasoning: '', text: '' };

export class ThinkTagSplitter {
  private phase: Phase = 'lead';
  private held = '';
  /** Some reasoning other than whitespace went out. */
  private spoke = false;
  /** Reasoning released from a block the prompt opened, while it has not closed (see flush). */
  private kept: string[] | undefined;

  /** `startsInside`: the prompt opened the block (its template ends with `<think>`). */
  constructor(private readonly startsInside = false) {}

  /** From here on content passes through as text unchanged: the caller may drop the splitter. */
  get settled(): boolean {
    return this.phase === 'done';
  }

  /** The next piece of content: what can be released now, reasoning before text. */
  push(piece: string): ThinkSplit {
    switch (this.phase) {
      case 'lead':
        return this.lead(piece);
      case 'inside':
        return this.inside(piece);
      case 'gap':
        return this.gap(piece);
      case 'done':
        return { reasoning: '', text: piece };
    }
  }

  /**
   * The content is over (finish, tool call, separate reasoning): release what is held. An unclosed
   * block stays reasoning, unless the prompt opened it and `turnEnded` (the model ended its turn,
   * no tool call): then all the content is the answer.
   */
  flush(turnEnded = false): ThinkSplit {
    const { phase, held, kept } = this;
    this.phase = 'done';
    this.held = '';
    this.kept = undefined;
    if (phase === 'inside') {
      if (kept && turnEnded) return { reasoning: '', text: kept.join('') + held, reasoningWasAnswer: true };
      return { reasoning: this.said(held), text: '' };
    }
    return { reasoning: '', text: phase === 'lead' ? held : '' };
  }

  private lead(piece: string): ThinkSplit {
    const held = this.held + piece;
    const rest = held.trimStart();
    if (rest.startsWith(OPEN)) {
      this.held = '';
      this.phase = 'inside';
      return this.inside(rest.slice(OPEN.length));
    }
    if (OPEN.startsWith(rest)) {
      // whitespace only, or a prefix of the tag: not decided yet
      this.held = held;
      return NOTHING;
    }
    this.held = '';
    if (this.startsInside) {
      // no tag of its own: the content goes on from the prompt's `<think>`
      this.phase = 'inside';
      this.kept = [];
      return this.inside(held);
    }
    this.phase = 'done';
    return { reasoning: '', text: held };
  }

  private inside(piece: string): ThinkSplit {
    const seen = this.held + piece;
    const end = seen.indexOf(CLOSE);
    if (end !== -1) {
      this.held = '';
      this.phase = 'gap';
      this.kept = undefined;
      return { reasoning: this.said(seen.slice(0, end)), text: this.gap(seen.slice(end + CLOSE.length)).text };
    }
    const cut = seen.length - closePrefixLength(seen);
    const reasoning = this.said(seen.slice(0, cut));
    this.held = reasoning === '' ? seen : seen.slice(cut);
    if (this.kept && reasoning) this.kept.push(reasoning);
    return { reasoning, text: '' };
  }

  /** Reasoning to release: nothing while the block has been whitespace alone. */
  private said(reasoning: string): string {
    if (!this.spoke) {
      if (reasoning.trim() === '') return '';
      this.spoke = true;
    }
    return reasoning;
  }

  private gap(piece: string): ThinkSplit {
    const text = piece.trimStart();
    if (text) this.phase = 'done';
    return { reasoning: '', text };
  }
}

/**
 * Length of the suffix of `s` that is a proper prefix of `</think>`. Only the one from the last `<`
 * can be: the tag holds no other `<`.
 */
function closePrefixLength(s: string): number {
  for (let at = s.length - 1; at >= 0 && at > s.length - CLOSE.length; at--) {
    if (s.charCodeAt(at) === 0x3c) return CLOSE.startsWith(s.slice(at)) ? s.length - at : 0;
  }
  return 0;
}

/** A whole content string split the same way (`turnEnded` as for flush). */
export function splitThinkTags(content: string, opts: { startsInside?: boolean; turnEnded?: boolean } = {}): ThinkSplit {
  const splitter = new ThinkTagSplitter(opts.startsInside);
  const head = splitter.push(content);
  const tail = splitter.flush(opts.turnEnded);
  if (tail.reasoningWasAnswer) return { reasoning: '', text: tail.text };
  return { reasoning: head.reasoning + tail.reasoning, text: head.text + tail.text };
}
