/**
 * `?`: every key of the current screen and the global ones. In a terminal too short for them all
 * ↑↓ PgUp PgDn Home End scroll (its last line says which rows show); any other key closes it.
 */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { useLatestState } from '../hooks/use-latest-state.js';
import { moveIndex } from '../hooks/cursor.js';
import { GLOBAL_KEYS, SCREEN_KEYS, SCREENS, type ScreenId } from '../screens/screens.js';
import { useTheme } from '../theme.js';
import { helpRows, type HelpEntry } from '../help-lines.js';
import { helpPage } from '../help-page.js';

export function Help({ screen, width, height, onClose }: { screen: ScreenId; width: number; height: number; onClose(): void }) {
  const theme = useTheme();
  const [offset, setOffset, getOffset] = useLatestState(0);
  const title = SCREENS.find((s) => s.id === screen)!.title;
  const entries: HelpEntry[] = [`${title} screen`, ...SCREEN_KEYS[screen].map((k) => [k[0], k[1]] as const), 'Everywhere', ...GLOBAL_KEYS.map((k) => [k[0], k[1]] as const)];
  const all = helpRows(entries, width);
  const page = helpPage(all, offset, height, width);
  useCaptureKeys(true);
  useKeys((_input, key) => {
    // the latest page: a resize since this render may have changed what scrolls
    const now = helpPage(all, getOffset(), height, width);
    const next = now.scrollable > 0 ? moveIndex(now.offset, now.scrollable, key, now.page) : undefined;
    if (next === undefined) return onClose();
    setOffset(next);
  });
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {page.rows.map((row, i) => (
        <Text key={i} wrap="truncate-end" bold={row.kind === 'heading'} color={row.kind === 'heading' ? theme.accent : row.kind === 'note' ? theme.muted : undefined}>
          {row.key !== undefined ? <Text bold>{row.key}</Text> : null}
          {row.text}
        </Text>
      ))}
    </Box>
  );
}
