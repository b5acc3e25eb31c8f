/** `?`: every key of the current screen and the global ones. Any key closes it. */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { GLOBAL_KEYS, SCREEN_KEYS, SCREENS, type ScreenId } from '../screens/screens.js';
import { useTheme } from '../theme.js';
import { helpRows, type HelpEntry } from '../help-lines.js';

export function Help({ screen, width, height, onClose }: { screen: ScreenId; width: number; height: number; onClose(): void }) {
  const theme = useTheme();
  useCaptureKeys(true);
  useKeys(() => onClose());
  const title = SCREENS.find((s) => s.id === screen)!.title;
  const entries: HelpEntry[] = [`${title} screen`, ...SCREEN_KEYS[screen].map((k) => [k[0], k[1]] as const), 'Everywhere', ...GLOBAL_KEYS.map((k) => [k[0], k[1]] as const)];
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {helpRows(entries, width, height).map((row, i) => (
        <Text key={i} wrap="truncate-end" bold={row.kind === 'heading'} color={row.kind === 'heading' ? theme.accent : row.kind === 'note' ? theme.muted : undefined}>
          {row.key !== undefined ? <Text bold>{row.key}</Text> : null}
          {row.text}
        </Text>
      ))}
    </Box>
  );
}
