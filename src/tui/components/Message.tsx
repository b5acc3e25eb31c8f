/** The one-line outcome of the last action: done (green), failed (red), or a plain note. */
import { Text } from 'ink';
import { useTheme } from '../theme.js';
import { printable } from '../../util/printable.js';

export interface Flash {
  kind: 'ok' | 'error' | 'info';
  text: string;
}

/** What an action says while the daemon is away (the status line says it is reconnecting). */
export const DAEMON_AWAY: Flash = { kind: 'error', text: 'The daemon is not reachable right now; nothing was changed. Try again once it is back.' };

export function Message({ flash }: { flash: Flash | undefined }) {
  const theme = useTheme();
  if (!flash) return <Text> </Text>;
  const colour = flash.kind === 'ok' ? theme.ok : flash.kind === 'error' ? theme.error : undefined;
  const mark = flash.kind === 'ok' ? '✓ ' : flash.kind === 'error' ? '✗ ' : '';
  return (
    <Text color={colour} wrap="truncate-end">
      {mark}
      {printable(flash.text)}
    </Text>
  );
}
