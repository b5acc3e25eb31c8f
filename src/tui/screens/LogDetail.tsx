/** The detail pane: every field of one request, scrolled with the arrow keys by the log screen. */
import { Box, Text } from 'ink';
import type { DetailLine } from '../log/detail-lines.js';
import { useTheme } from '../theme.js';
import { entryColour } from '../log/entry-failed.js';

const LABEL = 13;

export function LogDetail({ lines, offset, rows }: { lines: readonly DetailLine[]; offset: number; rows: number }) {
  const theme = useTheme();
  const shown = lines.slice(offset, offset + rows);
  return (
    <Box flexDirection="column" height={rows} overflow="hidden">
      {shown.map((l, i) =>
        l.heading ? (
          <Text key={offset + i} bold color={theme.accent} wrap="truncate-end">
            {l.text}
          </Text>
        ) : (
          <Text key={offset + i} wrap="truncate-end">
            {l.label !== undefined ? <Text color={theme.muted}>{`  ${l.label.padEnd(LABEL)}`}</Text> : null}
            <Text color={l.status !== undefined ? entryColour(theme, { status: l.status, errorCode: l.errorCode }) : undefined}>{l.text}</Text>
          </Text>
        ),
      )}
    </Box>
  );
}
