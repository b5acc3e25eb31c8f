/** The outcome of the last action: done (green), failed (red), or a plain note; up to two lines. */
import { Box, Text } from 'ink';
import { useTheme } from '../theme.js';
import { printable } from '../../util/printable.js';
import { wrapLines } from '../wrap-lines.js';

export interface Flash {
  kind: 'ok' | 'error' | 'info';
  text: string;
}

/** What an action says while the daemon is away (the status line says it is reconnecting). */
export const DAEMON_AWAY: Flash = { kind: 'error', text: 'The daemon is not reachable right now; nothing was changed. Try again once it is back.' };

/** Lines a message may take: room for an error's reason without pushing the table off screen. */
export const MESSAGE_LINES = 2;

export function Message({ flash, width }: { flash: Flash | undefined; width: number }) {
  const theme = useTheme();
  if (!flash) return <Text> </Text>;
  const colour = flash.kind === 'ok' ? theme.ok : flash.kind === 'error' ? theme.error : undefined;
  const mark = flash.kind === 'ok' ? '✓ ' : flash.kind === 'error' ? '✗ ' : '';
  return (
    <Box flexDirection="column">
      {wrapLines(mark + printable(flash.text), width, MESSAGE_LINES).map((line, i) => (
        <Text key={i} color={colour} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
