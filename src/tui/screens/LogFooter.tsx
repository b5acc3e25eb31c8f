/**
 * The Log's footer: live or paused with the counts, an active filter, the key hints that fit
 * (log/footer-layout.ts) — or the filter field while it is typed — a feed error, then the last 5
 * minutes on one line.
 */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { FooterLayout } from '../log/footer-layout.js';
import { useTheme } from '../theme.js';

export function LogFooter({ layout, field, width }: { layout: FooterLayout; field?: ReactNode; width: number }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Box height={1} width={width}>
        {field ?? (
          <Text wrap="truncate-end">
            {layout.mode === 'LIVE' ? (
              <Text color={theme.ok} bold>
                {layout.mode}
              </Text>
            ) : (
              <Text color={theme.warn} bold inverse>
                {layout.mode}
              </Text>
            )}
            <Text>{layout.counts}</Text>
            {layout.filterBeside ? <Text color={theme.accent}>{layout.filterBeside}</Text> : null}
            {layout.error ? <Text color={theme.error}>{layout.error}</Text> : null}
            <Text color={theme.muted}>{layout.hints}</Text>
          </Text>
        )}
      </Box>
      {layout.below.map((line, i) => (
        <Text key={i} color={theme.accent} wrap="truncate-end">
          {line}
        </Text>
      ))}
      {layout.errorBelow.map((line, i) => (
        <Text key={i} color={theme.error} wrap="truncate-end">
          {line}
        </Text>
      ))}
      <Text wrap="truncate-end">
        {layout.summary.map((part, i) => (
          <Text key={i} color={part.failed ? theme.error : theme.muted}>
            {part.text}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
