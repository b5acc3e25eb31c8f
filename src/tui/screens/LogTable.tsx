/** Rows of the request log, newest on top, in the columns that fit; the status cell is coloured. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { RequestLogEntry } from '../../log/entry.js';
import { fitCell, GAP, type PlacedColumn } from '../log/columns.js';
import { useTheme } from '../theme.js';
import { entryColour } from '../log/entry-failed.js';

const SEP = ' '.repeat(GAP);

export function headerText(columns: readonly PlacedColumn[]): string {
  return columns.map((p) => fitCell(p.col.title, p.width, p.col.right)).join(SEP);
}

const LogRow = memo(function LogRow({ entry, columns, selected }: { entry: RequestLogEntry; columns: readonly PlacedColumn[]; selected: boolean }) {
  const theme = useTheme();
  const at = columns.findIndex((p) => p.col.id === 'status');
  const cells = columns.map((p) => fitCell(p.col.cell(entry), p.width, p.col.right));
  const before = cells.slice(0, at).join(SEP) + (at > 0 ? SEP : '');
  const after = (at < cells.length - 1 ? SEP : '') + cells.slice(at + 1).join(SEP);
  return (
    <Text wrap="truncate-end" inverse={selected}>
      {before}
      <Text color={entryColour(theme, entry)} bold={entry.status === 0 || entry.status >= 500}>
        {cells[at]}
      </Text>
      {after}
    </Text>
  );
});

export interface LogTableProps {
  entries: readonly RequestLogEntry[];
  columns: readonly PlacedColumn[];
  selectedId: string | null;
  rows: number;
  empty: string;
}

export function LogTable({ entries, columns, selectedId, rows, empty }: LogTableProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" height={rows + 1} overflow="hidden">
      <Text bold wrap="truncate-end">
        {headerText(columns)}
      </Text>
      {entries.length === 0 ? (
        <Text color={theme.muted} wrap="truncate-end">
          {empty}
        </Text>
      ) : (
        entries.map((e) => <LogRow key={e.id} entry={e} columns={columns} selected={e.id === selectedId} />)
      )}
    </Box>
  );
}
