/** Top line: the screens (current one highlighted) and the two keys everyone needs. */
import { Box, Text } from 'ink';
import { SCREENS, type ScreenId } from '../screens/screens.js';
import { useTheme } from '../theme.js';

export function TabBar({ current, width }: { current: ScreenId; width: number }) {
  const theme = useTheme();
  return (
    <Box width={width} height={1}>
      <Box flexGrow={1} overflow="hidden">
        <Text wrap="truncate-end">
          <Text bold color={theme.accent}>
            svc-proxy{' '}
          </Text>
          {SCREENS.map((s) => (
            <Text key={s.id}>
              {' '}
              {s.id === current ? (
                <Text inverse bold>
                  {` ${s.key} ${s.title} `}
                </Text>
              ) : (
                <Text>{` ${s.key} ${s.title} `}</Text>
              )}
            </Text>
          ))}
        </Text>
      </Box>
      <Text color={theme.muted}> ? help  q quit</Text>
    </Box>
  );
}
