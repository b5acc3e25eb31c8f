/** The one-line outcome of the last action: done (green), failed (red), or a plain note. */
import { Text } from 'ink';
import { useTheme } from '../theme.js';

export interface Flash {
  kind: 'ok' | 'error' | 'info';
  text: string;
}

export function Message({ flash }: { flash: Flash | undefined }) {
  const theme = useTheme();
  if (!flash) return <Text> </Text>;
  const colour = flash.kind === 'ok' ? theme.ok : flash.kind === 'error' ? theme.error : undefined;
  const mark = flash.kind === 'ok' ? '✓ ' : flash.kind === 'error' ? '✗ ' : '';
  return (
    <Text color={colour} wrap="truncate-end">
      {mark}
      {flash.text}
    </Text>
  );
}
