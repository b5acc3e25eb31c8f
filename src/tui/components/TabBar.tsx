/** Top line: the screens (current one highlighted) and the two keys everyone needs. */
import { Box, Text } from 'ink';
import type { ScreenId } from '../screens/screens.js';
import { tabLayout, TITLED_TABS_MIN } from '../tab-layout.js';
import { useTheme } from '../theme.js';
import { textWidth } from '../../util/text-width.js';

// The longest that leaves the tabs room to name the current screen; the help key itself stays.
const HINTS = [' ? help  q quit', ' ? help', ' ?'];

export function hintFor(width: number): string {
  return HINTS.find((h) => width - textWidth(h) >= TITLED_TABS_MIN) ?? HINTS[HINTS.length - 1]!;
}

/** Whether the bar says what `?` and `q` do; narrower, GlobalKeys says it on a line of its own. */
export const tabBarNamesKeys = (width: number): boolean => hintFor(width) === HINTS[0];

export function TabBar({ current, width }: { current: ScreenId; width: number }) {
  const theme = useTheme();
  const hint = hintFor(width);
  const hintWidth = textWidth(hint);
  const segments = tabLayout(current, width - hintWidth);
  return (
    <Box width={width} height={1}>
      <Box flexGrow={1} flexShrink={1} overflow="hidden">
        <Text wrap="truncate-end">
          {segments.map((s, i) =>
            s.brand ? (
              <Text key={i} bold color={theme.accent}>
                {s.text}
              </Text>
            ) : s.current ? (
              <Text key={i} inverse bold>
                {s.text}
              </Text>
            ) : (
              <Text key={i}>{s.text}</Text>
            ),
          )}
        </Text>
      </Box>
      {/* its own measured width, never shrunk: a squeezed hint wrapped and lost "quit" */}
      <Box width={hintWidth} flexShrink={0}>
        <Text color={theme.muted}>{hint}</Text>
      </Box>
    </Box>
  );
}
