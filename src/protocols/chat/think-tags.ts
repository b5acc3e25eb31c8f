/**
 * Reasoning that a Chat server put in `content` as a leading `<think>…</think>` instead of a
 * reasoning field (vLLM without a reasoning parser, llama.cpp with `--reasoning-format none`, LM
 * Studio, DeepSeek-R1 hosts, MiniMax M2). Only the start of the content counts, after optional
 * whitespace: a tag later on is text. Fed piece by piece, it holds back only what may still turn out
 * to be a tag: before the decision the whitespace and a prefix of `<think>`, inside the block a
 * prefix of `</think>`. The text after `</think>` loses its leading whitespace. A block of whitespace
 * alone (Qwen3 with thinking off sends `<think>\n\n</think>`) gives no reasoning: until its first
 * other character, the block's whitespace is held too.
 */

const OPEN = '<think>';
const CLOSE = '</think>';

export interface ThinkSplit {
  reasoning: string;
  text: string;
}

type Phase = 'lead' | 'inside' | 'gap' | 'done';

const NOTHING: ThinkSplit = { reasoning: '', text: '' };

export class ThinkTagSplitter {
  private phase: Phase = 'lead';
  private held = '';
  /** Some reasoning other than whitespace went out. */
  private spoke = false;

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

  /** The content is over (finish, tool call, separate reasoning): release what is held. An unclosed block stays reasoning. */
  flush(): ThinkSplit {
    const { phase, held } = this;
    this.phase = 'done';
    this.held = '';
    if (phase === 'inside') return { reasoning: this.said(held), text: '' };
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
    this.phase = 'done';
    return { reasoning: '', text: held };
  }

  private inside(piece: string): ThinkSplit {
    const seen = this.held + piece;
    const end = seen.indexOf(CLOSE);
    if (end !== -1) {
      this.held = '';
      this.phase = 'gap';
      return { reasoning: this.said(seen.slice(0, end)), text: this.gap(seen.slice(end + CLOSE.length)).text };
    }
    const cut = seen.length - closePrefixLength(seen);
    const reasoning = this.said(seen.slice(0, cut));
    this.held = reasoning === '' ? seen : seen.slice(cut);
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

/** A whole content string split the same way. */
export function splitThinkTags(content: string): ThinkSplit {
  const splitter = new ThinkTagSplitter();
  const head = splitter.push(content);
  const tail = splitter.flush();
  return { reasoning: head.reasoning + tail.reasoning, text: head.text + tail.text };
}
