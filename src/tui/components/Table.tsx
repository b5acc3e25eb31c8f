/**
 * A table with a selected row, scrolled to keep it in view. Columns are as wide as their widest
 * cell up to a cap; the last column takes what is left of the width. With `dropOrder`, a narrow
 * terminal shows the columns that matter most, each whole or cut with … (table-columns.ts).
 */
import { Box, Text } from 'ink';
import { useRef } from 'react';
import { windowStart } from '../hooks/cursor.js';
import { clip, widthsOf } from '../format.js';
import { fitTableColumns, type ShrinkFirst } from '../table-columns.js';
import { padToWidth } from '../../util/text-width.js';
import { useTheme } from '../theme.js';

export interface TableRow {
  id: string;
  cells: string[];
  /** Per-cell colour (undefined = default). */
  colours?: Array<string | undefined>;
  dim?: boolean;
  bold?: boolean;
}

export interface TableProps {
  headers: string[];
  rows: TableRow[];
  caps: number[];
  width: number;
  /** Rows of data shown (the header comes on top). */
  height: number;
  /** Selected row index; -1 for none. */
  cursor: number;
  /** Columns (by index) that give way to the others where the width cannot hold them all, first named first. */
  dropOrder?: readonly number[];
  /** Columns that give up cells, down to a least width, before any in `dropOrder` goes. */
  shrinkFirst?: readonly ShrinkFirst[];
  /** How the cells of a column (by index) are cut to its width, where not at their end with …. */
  clips?: Readonly<Record<number, (cell: string, width: number) => string>>;
  empty?: string;
}

export function Table({ headers, rows, caps, width, height, cursor, empty, dropOrder, shrinkFirst, clips }: TableProps) {
  const theme = useTheme();
  const start = useRef(0);
  start.current = windowStart(Math.max(0, cursor), rows.length, height, start.current);
  const widths = widthsOf([headers, ...rows.map((r) => r.cells)], caps);
  const shown = rows.slice(start.current, start.current + height);
  // without a drop order every column shows, and the line is cut at its end
  const placed = dropOrder ? fitTableColumns(widths, width, dropOrder, 2, shrinkFirst) : widths.map((w, index) => ({ index, width: w }));
  const lastWidth = width - placed.slice(0, -1).reduce((n, p) => n + p.width + 2, 0);
  // a header is cut at its end: its start says what the column is
  const line = (cells: string[], header = false) =>
    placed.map((p, i) => {
      const last = i === placed.length - 1;
      const cut = (!header && clips?.[p.index]) || clip;
      if (!last) return padToWidth(cut(cells[p.index]!, p.width), p.width);
      return dropOrder ? cut(cells[p.index]!, lastWidth) : cells[p.index]!;
    });

  return (
    <Box flexDirection="column" height={height + 1} overflow="hidden">
      <Text bold wrap="truncate-end">
        {clip(line(headers, true).join('  '), width)}
      </Text>
      {rows.length === 0 && empty ? (
        <Text color={theme.muted} wrap="truncate-end">
          {empty}
        </Text>
      ) : null}
      {shown.map((r, i) => {
        const cells = line(r.cells);
        const selected = start.current + i === cursor;
        return (
          <Text key={r.id} wrap="truncate-end" inverse={selected} dimColor={r.dim && !selected} bold={r.bold}>
            {cells.map((c, j) => (
              <Text key={j} color={r.colours?.[placed[j]!.index]}>
                {j === 0 ? '' : '  '}
                {c}
              </Text>
            ))}
          </Text>
        );
      })}
    </Box>
  );
}
