/** `?`: every key of the current screen and the global ones. Any key closes it. */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { GLOBAL_KEYS, SCREEN_KEYS, SCREENS, type ScreenId } from '../screens/screens.js';
import { useTheme } from '../theme.js';

export function Help({ screen, height, onClose }: { screen: ScreenId; height: number; onClose(): void }) {
  const theme = useTheme();
  useCaptureKeys(true);
  useKeys(() => onClose());
  const title = SCREENS.find((s) => s.id === screen)!.title;
  const lines: Array<[string, string] | string> = [`${title} screen`, ...SCREEN_KEYS[screen].map((k) => [k[0], k[1]] as [string, string]), 'Everywhere', ...GLOBAL_KEYS.map((k) => [k[0], k[1]] as [string, string])];
  const keyWidth = Math.max(...lines.map((l) => (typeof l === 'string' ? 0 : l[0].length)));
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {lines.map((l, i) =>
        typeof l === 'string' ? (
          <Text key={i} bold color={theme.accent}>
            {l}
          </Text>
        ) : (
          <Text key={i} wrap="wrap">
            {'  '}
            <Text bold>{l[0].padEnd(keyWidth)}</Text>
            {'  '}
            {l[1]}
          </Text>
        ),
      )}
      <Text color={theme.muted}>Press any key to close.</Text>
    </Box>
  );
}
