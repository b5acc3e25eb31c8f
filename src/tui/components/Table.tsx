/**
 * A table with a selected row, scrolled to keep it in view. Columns are as wide as their widest
 * cell up to a cap; the last column takes what is left of the width. With `dropOrder`, a narrow
 * terminal shows the columns that matter most, each whole or cut with … (table-columns.ts).
 */
import { Box, Text } from 'ink';
import { useRef } from 'react';
import { windowStart } from '../hooks/cursor.js';
import { clip, widthsOf } from '../format.js';
import { fitTableColumns, type DropStep, type ShrinkFirst } from '../table-columns.js';
import { padToWidth, textWidth } from '../../util/text-width.js';
import { useTheme } from '../theme.js';

export interface TableRow {
  id: string;
  cells: string[];
  /** Per-cell colour (undefined = default). */
  colours?: Array<string | undefined>;
  dim?: boolean;
  bold?: boolean;
  /** Fewer words for a cell (by column index), shown where the column is too narrow for the cell whole. */
  brief?: Readonly<Record<number, string>>;
}

export interface TableProps {
  headers: string[];
  /** Fewer words for a header (by column index), shown where the column is too narrow for it whole. */
  briefHeaders?: Readonly<Record<number, string>>;
  rows: TableRow[];
  caps: number[];
  width: number;
  /** Rows of data shown (the header comes on top). */
  height: number;
  /** Selected row index; -1 for none. */
  cursor: number;
  /** Columns (by index) that give way to the others where the width cannot hold them all, first named first (one with a least width shrinks to it first, where that is enough). */
  dropOrder?: readonly DropStep[];
  /** Columns that give up cells, down to a least width, before any in `dropOrder` goes. */
  shrinkFirst?: readonly ShrinkFirst[];
  /** How the cells of a column (by index) are cut to its width, where not at their end with …. */
  clips?: Readonly<Record<number, (cell: string, width: number) => string>>;
  empty?: string;
}

export function Table({ headers, briefHeaders, rows, caps, width, height, cursor, empty, dropOrder, shrinkFirst, clips }: TableProps) {
  const theme = useTheme();
  const start = useRef(0);
  start.current = windowStart(Math.max(0, cursor), rows.length, height, start.current);
  const widths = widthsOf([headers, ...rows.map((r) => r.cells)], caps);
  const shown = rows.slice(start.current, start.current + height);
  // without a drop order every column shows, and the line is cut at its end
  const placed = dropOrder ? fitTableColumns(widths, width, dropOrder, 2, shrinkFirst) : widths.map((w, index) => ({ index, width: w }));
  const lastWidth = width - placed.slice(0, -1).reduce((n, p) => n + p.width + 2, 0);
  // a header is cut at its end: its start says what the column is
  const line = (cells: string[], briefs: Readonly<Record<number, string>> | undefined, header = false) =>
    placed.map((p, i) => {
      const last = i === placed.length - 1;
      const cut = (!header && clips?.[p.index]) || clip;
      const w = last ? lastWidth : p.width;
      const brief = briefs?.[p.index];
      const cell = brief !== undefined && textWidth(cells[p.index]!) > w ? brief : cells[p.index]!;
      if (!last) return padToWidth(cut(cell, w), w);
      return dropOrder ? cut(cell, w) : cell;
    });

  return (
    <Box flexDirection="column" height={height + 1} overflow="hidden">
      <Text bold wrap="truncate-end">
        {clip(line(headers, briefHeaders, true).join('  '), width)}
      </Text>
      {rows.length === 0 && empty ? (
        <Text color={theme.muted} wrap="truncate-end">
          {empty}
        </Text>
      ) : null}
      {shown.map((r, i) => {
        const cells = line(r.cells, r.brief);
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
