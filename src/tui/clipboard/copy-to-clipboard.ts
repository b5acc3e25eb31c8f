/**
 * Copying a text through the terminal (osc52.ts) and what to tell the user: there is no answer to
 * an OSC 52, so outside tmux (in GNU screen too) it is "sent", with a way to check; inside tmux,
 * tmux says what it does with it (tmux-clipboard.ts). The text goes only to the terminal, never to
 * a log or a file.
 */
import { clipboardBytes, type Multiplexer } from './osc52.js';
import { tmuxClipboard } from './tmux-clipboard.js';

type Env = Record<string, string | undefined>;

export interface Copied {
  /** Whether the text reached a clipboard as far as can be known (false: tmux dropped it). */
  copied: boolean;
  text: string;
}

/**
 * Both set (tmux in screen, or screen in tmux: the environment cannot tell which is inside): tmux,
 * which can be asked what it did.
 */
export function multiplexerOf(env: Env): Multiplexer {
  return env.TMUX ? 'tmux' : env.STY ? 'screen' : undefined;
}

export async function copyToClipboard(text: string, terminal: { write(bytes: string): unknown }, env: Env): Promise<Copied> {
  const through = multiplexerOf(env);
  terminal.write(clipboardBytes(text, through));
  switch (through === 'tmux' ? await tmuxClipboard(env) : undefined) {
    case 'buffer':
      return { copied: true, text: "Copied to tmux's paste buffer and the terminal's clipboard." };
    case 'dropped':
      return { copied: false, text: 'Not copied: tmux drops it; tmux set -g set-clipboard on lets it through.' };
    default:
      return { copied: true, text: 'Sent to the clipboard (OSC 52): paste to check, as some terminals ignore it.' };
  }
}
