/**
 * Which columns of a table show at a width, and how wide. All at their natural widths (the widest
 * cell, up to a cap) where they fit; else the columns named in `shrinkFirst` give up cells down to
 * their least width, and the columns named in `dropOrder` go, first named first, only as far as
 * those cannot make up the rest (one named there with a least width, when its turn comes, gives up
 * cells down to it instead, where that is enough, and goes only where it is not); else those between the first and the last give up cells one at a
 * time, widest first (their cells end in …), then the last, then the first, as it names the row.
 * Cut at the line's end instead, 20 columns showed a key table's name and half its prefix, and no
 * state; a long model name took the room of every figure on the Stats screen.
 */

export interface PlacedTableColumn {
  /** The column's index among the table's columns. */
  index: number;
  width: number;
}

/** A column that gives up cells before any column is left out, down to `min`. */
export interface ShrinkFirst {
  index: number;
  min: number;
}

/** A column of `dropOrder`: its index, or a column that shrinks to `min` before it goes. */
export type DropStep = number | ShrinkFirst;

export function fitTableColumns(natural: readonly number[], width: number, dropOrder: readonly DropStep[], gap: number, shrinkFirst: readonly ShrinkFirst[] = []): PlacedTableColumn[] {
  const total = (cols: readonly PlacedTableColumn[]) => cols.reduce((n, c) => n + c.width, 0) + gap * Math.max(0, cols.length - 1);
  // the shrink-first columns, then those of the drop order kept at a least width
  const shrinkers = [...shrinkFirst];
  // what the shrinking columns among `cols` can give
  const spare = (cols: readonly PlacedTableColumn[]) => shrinkers.reduce((n, s) => n + Math.max(0, (cols.find((c) => c.index === s.index)?.width ?? s.min) - s.min), 0);
  const fits = (cols: readonly PlacedTableColumn[]) => total(cols) - spare(cols) <= width;
  let shown = natural.map((w, index) => ({ index, width: w }));
  for (const step of dropOrder) {
    if (fits(shown)) break;
    if (typeof step !== 'number') {
      shrinkers.push(step);
      if (fits(shown)) break;
      shrinkers.pop();
    }
    const drop = typeof step === 'number' ? step : step.index;
    shown = shown.filter((c) => c.index !== drop);
  }
  let over = total(shown) - width;
  for (const s of shrinkers) {
    const col = shown.find((c) => c.index === s.index);
    if (!col || over <= 0) continue;
    const given = Math.min(over, Math.max(0, col.width - s.min));
    col.width -= given;
    over -= given;
  }
  for (; over > 0; over--) {
    const middle = shown.slice(1, -1).filter((c) => c.width > 1);
    const widest = middle.length > 0 ? middle.reduce((a, b) => (b.width > a.width ? b : a)) : shown.length > 1 && shown.at(-1)!.width > 1 ? shown.at(-1)! : shown[0]!;
    if (widest.width <= 1) break;
    widest.width--;
  }
  return shown;
}
