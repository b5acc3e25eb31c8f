/**
 * The keys that work on every screen, on the bottom line, for a terminal too narrow for the tab
 * bar to name them: without it 20 columns showed a bare `?` and nothing said how to quit.
 */
import { Text } from 'ink';
import { fittingHints, type Hint } from '../key-hints.js';
import { useTheme } from '../theme.js';

const GLOBAL_HINTS: readonly Hint[] = ['? help', 'q quit'];

export function GlobalKeys({ width }: { width: number }) {
  const theme = useTheme();
  return (
    <Text color={theme.muted} wrap="truncate-end">
      {fittingHints(GLOBAL_HINTS, width, '')}
    </Text>
  );
}
