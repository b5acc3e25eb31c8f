/**
 * The outcome of the last action: done (green), failed (red), or a plain note, wrapped on as many
 * lines as two take at 80 columns, so a narrower terminal shows the same words rather than fewer
 * (within a third of the screen, which a short terminal needs for the rest).
 */
import { Box, Text } from 'ink';
import { useTheme } from '../theme.js';
import { printable } from '../../util/printable.js';
import { wrapLines } from '../wrap-lines.js';

export interface Flash {
  kind: 'ok' | 'error' | 'info';
  text: string;
  /**
   * A notice to act on (credentials.json open to others, or made 0600) that goes with the outcome
   * (`text`): under a list (message-under-list.ts) the message gets the lines both need, past the
   * usual two. The notice starts a line of its own under the outcome; where the rows run out the
   * outcome keeps its first line and the notice the rows after it, each cut with … (messageRows).
   */
  notice?: string;
}

/** What an action says while the daemon is away (the status line says it is reconnecting). */
export const DAEMON_AWAY: Flash = { kind: 'error', text: 'The daemon is not reachable right now; nothing was changed. Try again once it is back.' };

/** Lines a message takes at 80 columns and wider: room for an error's reason without pushing the table off screen. */
const MESSAGE_LINES = 2;
const MESSAGE_CELLS = MESSAGE_LINES * 80;

/** Lines a message may take at `width` on a screen `height` rows tall (screens keep that room for it). */
export function messageLines(width: number, height = Infinity): number {
  return Math.max(MESSAGE_LINES, Math.min(Math.ceil(MESSAGE_CELLS / Math.max(1, width)), Math.floor(height / 3)));
}

/**
 * The rows `flash` is drawn on at `width`, `max` at most. With a notice: the outcome's lines, then
 * the notice's; short of rows the outcome keeps its first (what happened), the notice the rows it
 * needs after it, the outcome's further lines what the notice leaves. On one row the notice follows
 * the outcome, its … saying there is more.
 */
export function messageRows(flash: Flash, width: number, max: number): string[] {
  const outcome = flashText(flash);
  if (flash.notice === undefined) return wrapLines(outcome, width, max);
  const notice = printable(flash.notice);
  if (max <= 1) return wrapLines(`${outcome} ${notice}`, width, max);
  const outcomeRows = Math.min(wrapLines(outcome, width, Infinity).length, Math.max(1, max - wrapLines(notice, width, Infinity).length));
  return [...wrapLines(outcome, width, outcomeRows), ...wrapLines(notice, width, max - outcomeRows)];
}

/** Lines `flash` wraps onto at `width`, `max` at most. */
export function flashLines(flash: Flash, width: number, max: number): number {
  return messageRows(flash, width, max).length;
}

const flashText = (flash: Flash) => (flash.kind === 'ok' ? '✓ ' : flash.kind === 'error' ? '✗ ' : '') + printable(flash.text);

export function Message({ flash, width, lines = messageLines(width) }: { flash: Flash | undefined; width: number; lines?: number }) {
  const theme = useTheme();
  if (!flash) return lines > 0 ? <Text> </Text> : null;
  const colour = flash.kind === 'ok' ? theme.ok : flash.kind === 'error' ? theme.error : undefined;
  return (
    <Box flexDirection="column">
      {messageRows(flash, width, lines).map((line, i) => (
        <Text key={i} color={colour} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
