/**
 * Which columns of a table show at a width, and how wide. All at their natural widths (the widest
 * cell, up to a cap) where they fit; else the columns named in `dropOrder` go, first named first,
 * until the rest fit; else those between the first and the last give up cells one at a time, widest
 * first (their cells end in …), then the last, then the first, as it names the row. Cut at the
 * line's end instead, 20 columns showed a key table's name and half its prefix, and no state.
 */

export interface PlacedTableColumn {
  /** The column's index among the table's columns. */
  index: number;
  width: number;
}

export function fitTableColumns(natural: readonly number[], width: number, dropOrder: readonly number[], gap: number): PlacedTableColumn[] {
  const total = (cols: readonly PlacedTableColumn[]) => cols.reduce((n, c) => n + c.width, 0) + gap * Math.max(0, cols.length - 1);
  let shown = natural.map((w, index) => ({ index, width: w }));
  for (const drop of dropOrder) {
    if (total(shown) <= width) break;
    shown = shown.filter((c) => c.index !== drop);
  }
  for (let over = total(shown) - width; over > 0; over--) {
    const middle = shown.slice(1, -1).filter((c) => c.width > 1);
    const widest = middle.length > 0 ? middle.reduce((a, b) => (b.width > a.width ? b : a)) : shown.length > 1 && shown.at(-1)!.width > 1 ? shown.at(-1)! : shown[0]!;
    if (widest.width <= 1) break;
    widest.width--;
  }
  return shown;
}
