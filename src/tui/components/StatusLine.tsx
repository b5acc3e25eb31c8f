/** Second line: where the daemon is, or that it is gone and we are reconnecting; plus a notice. */
import { Box, Text } from 'ink';
import type { LinkState } from '../daemon-link.js';
import { useTheme } from '../theme.js';

export function StatusLine({ state, notice, width, foreground }: { state: LinkState; notice?: string; width: number; foreground?: boolean }) {
  const theme = useTheme();
  let left;
  if (state.status === 'connected') {
    left = (
      <Text color={theme.ok}>
        ● <Text color={undefined}>daemon {state.backend.origin.replace(/^http:\/\//, '')} (pid {state.backend.pid}){foreground ? ' · foreground: q stops it' : ''}</Text>
      </Text>
    );
  } else if (state.status === 'connecting') {
    left = <Text color={theme.muted}>connecting to the daemon…</Text>;
  } else {
    left = (
      <Text color={theme.error} bold>
        ● daemon stopped — reconnecting…
      </Text>
    );
  }
  return (
    <Box width={width} height={1}>
      <Box flexShrink={0}>{left}</Box>
      {notice ? (
        <Box flexGrow={1} overflow="hidden" marginLeft={2}>
          <Text color={theme.muted} wrap="truncate-end">
            {notice}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
