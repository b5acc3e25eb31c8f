/**
 * What the status line says of the daemon, in the fullest wording that fits the terminal: a
 * narrow one loses the pid and then the longer words first, so the address and (in the
 * foreground) that q stops the daemon stay whole instead of running off the edge.
 */
import type { LinkState } from './daemon-link.js';
import { textWidth } from '../util/text-width.js';

export interface DaemonStatus {
  tone: 'ok' | 'waiting' | 'gone';
  /** The dot before the words, for a known daemon state ('' while connecting). */
  mark: string;
  text: string;
}

function wordings(state: LinkState, foreground: boolean): { tone: DaemonStatus['tone']; mark: string; texts: string[] } {
  if (state.status === 'connecting') return { tone: 'waiting', mark: '', texts: ['connecting to the daemon…', 'connecting…'] };
  if (state.status === 'lost') return { tone: 'gone', mark: '● ', texts: ['daemon stopped — reconnecting…', 'reconnecting…'] };
  const where = state.backend.origin.replace(/^http:\/\//, '');
  const pid = `(pid ${state.backend.pid})`;
  const texts = foreground
    ? [`daemon ${where} ${pid} · foreground: q stops it`, `daemon ${where} · foreground: q stops it`, `daemon ${where} · q stops it`, `${where} · q stops it`]
    : [`daemon ${where} ${pid}`, `daemon ${where}`, where];
  return { tone: 'ok', mark: '● ', texts };
}

/** The fullest wording that fits `width` whole, else the shortest (which the line then cuts with …). */
export function daemonStatus(state: LinkState, foreground: boolean, width: number): DaemonStatus {
  const { tone, mark, texts } = wordings(state, foreground);
  const text = texts.find((t) => textWidth(mark + t) <= width) ?? texts[texts.length - 1]!;
  return { tone, mark, text };
}
