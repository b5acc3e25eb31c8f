/** Second line: where the daemon is, or that it is gone and we are reconnecting; plus a notice. */
import { Box, Text } from 'ink';
import type { LinkState } from '../daemon-link.js';
import { daemonStatus } from '../status-text.js';
import { useTheme } from '../theme.js';
import { textWidth } from '../../util/text-width.js';

/** Columns between the daemon's status and the notice. */
const NOTICE_GAP = 2;
/** Fewer columns than this left for the notice: it is left out rather than shown as a stub. */
const NOTICE_MIN = 10;

export function StatusLine({ state, notice, width, foreground }: { state: LinkState; notice?: string; width: number; foreground?: boolean }) {
  const theme = useTheme();
  const status = daemonStatus(state, foreground === true, width);
  const statusWidth = Math.min(width, textWidth(status.mark + status.text));
  let left;
  if (status.tone === 'ok') {
    left = (
      <Text color={theme.ok} wrap="truncate-end">
        {status.mark}
        <Text color={undefined}>{status.text}</Text>
      </Text>
    );
  } else if (status.tone === 'waiting') {
    left = (
      <Text color={theme.muted} wrap="truncate-end">
        {status.text}
      </Text>
    );
  } else {
    left = (
      <Text color={theme.error} bold wrap="truncate-end">
        {status.mark}
        {status.text}
      </Text>
    );
  }
  const showNotice = notice !== undefined && notice !== '' && width - statusWidth - NOTICE_GAP >= NOTICE_MIN;
  return (
    <Box width={width} height={1}>
      <Box width={statusWidth} flexShrink={0}>
        {left}
      </Box>
      {showNotice ? (
        <Box flexGrow={1} overflow="hidden" marginLeft={NOTICE_GAP}>
          <Text color={theme.muted} wrap="truncate-end">
            {notice}
          </Text>
        </Box>
      ) : null}
    </Box>
  );
}
