/**
 * What the status line says of the daemon, in the fullest wording that fits the terminal: a
 * narrow one loses the pid and then the longer words first, so the address and (in the
 * foreground) that q stops the daemon stay whole instead of running off the edge. A notice (where
 * the daemon's log is, that it was started) goes beside it where it fits whole, else wrapped on
 * lines of its own below, so a path is never cut.
 */
import type { LinkState } from './daemon-link.js';
import { wrapLines } from './wrap-lines.js';
import { printable } from '../util/printable.js';
import { textWidth } from '../util/text-width.js';

/** Columns between the daemon's status and a notice beside it. */
export const NOTICE_GAP = 2;
/** Lines a notice may take below the status: a state directory's log path at 20 columns. */
export const NOTICE_LINES = 4;

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

export interface StatusLayout {
  status: DaemonStatus;
  /** The notice on the status's line, when it fits there whole. */
  beside?: string;
  /** Else the notice wrapped on lines below (at most `maxLines`, the last ending in … past them). */
  below: string[];
}

export function statusLayout(state: LinkState, foreground: boolean, notice: string | undefined, width: number, maxLines = NOTICE_LINES): StatusLayout {
  const status = daemonStatus(state, foreground, width);
  if (notice === undefined || notice === '') return { status, below: [] };
  const text = printable(notice);
  if (textWidth(status.mark + status.text) + NOTICE_GAP + textWidth(text) <= width) return { status, beside: text, below: [] };
  return { status, below: maxLines > 0 ? wrapLines(text, width, maxLines) : [] };
}
