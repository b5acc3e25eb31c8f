/**
 * Second line: where the daemon is, or that it is gone and we are reconnecting; plus a notice,
 * beside it or wrapped on the lines below (status-text.ts).
 */
import { Box, Text } from 'ink';
import type { LinkState } from '../daemon-link.js';
import { NOTICE_GAP, statusLayout } from '../status-text.js';
import { useTheme } from '../theme.js';
import { textWidth } from '../../util/text-width.js';

export function StatusLine({ state, notice, width, foreground, noticeLines }: { state: LinkState; notice?: string; width: number; foreground?: boolean; noticeLines?: number }) {
  const theme = useTheme();
  const { status, beside, below } = statusLayout(state, foreground === true, notice, width, noticeLines);
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
  return (
    <Box width={width} flexDirection="column" flexShrink={0}>
      <Box width={width} height={1}>
        <Box width={statusWidth} flexShrink={0}>
          {left}
        </Box>
        {beside !== undefined ? (
          <Box flexGrow={1} overflow="hidden" marginLeft={NOTICE_GAP}>
            <Text color={theme.muted} wrap="truncate-end">
              {beside}
            </Text>
          </Box>
        ) : null}
      </Box>
      {below.map((line, i) => (
        <Text key={i} color={theme.muted} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  );
}
