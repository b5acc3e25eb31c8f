/** Top line: the screens (current one highlighted) and the two keys everyone needs. */
import { Box, Text } from 'ink';
import { SCREENS, type ScreenId } from '../screens/screens.js';
import { useTheme } from '../theme.js';
import { textWidth } from '../../util/text-width.js';

// The longest that leaves the tabs room; the tabs give way first, the hint only below that.
const HINTS = [' ? help  q quit', ' ? help'];
const TABS_MIN = 12;

export function hintFor(width: number): string {
  return HINTS.find((h) => width - textWidth(h) >= TABS_MIN) ?? HINTS[HINTS.length - 1]!;
}

export function TabBar({ current, width }: { current: ScreenId; width: number }) {
  const theme = useTheme();
  const hint = hintFor(width);
  return (
    <Box width={width} height={1}>
      <Box flexGrow={1} flexShrink={1} overflow="hidden">
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
      {/* its own measured width, never shrunk: a squeezed hint wrapped and lost "quit" */}
      <Box width={textWidth(hint)} flexShrink={0}>
        <Text color={theme.muted}>{hint}</Text>
      </Box>
    </Box>
  );
}
