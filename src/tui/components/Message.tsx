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
   * Carries a notice to act on (credentials.json open to others, or made 0600) beside the outcome: under a list
   * (message-under-list.ts) the message gets the lines it needs, past the usual two, so neither is cut off.
   */
  notice?: true;
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

/** Lines `flash` wraps onto at `width`, `max` at most. */
export function flashLines(flash: Flash, width: number, max: number): number {
  return wrapLines(flashText(flash), width, max).length;
}

const flashText = (flash: Flash) => (flash.kind === 'ok' ? '✓ ' : flash.kind === 'error' ? '✗ ' : '') + printable(flash.text);

export function Message({ flash, width, lines = messageLines(width) }: { flash: Flash | undefined; width: number; lines?: number }) {
  const theme = useTheme();
  if (!flash) return lines > 0 ? <Text> </Text> : null;
  const colour = flash.kind === 'ok' ? theme.ok : flash.kind === 'error' ? theme.error : undefined;
  return (
    <Box flexDirection="column">
      {wrapLines(flashText(flash), width, lines).map((line, i) => (
        <Text key={i} color={colour} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
