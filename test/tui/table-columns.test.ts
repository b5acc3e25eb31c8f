import { describe, expect, it } from 'vitest';
import { fitTableColumns } from '../../src/tui/table-columns.js';

describe('the columns of a table at a width', () => {
  it('all at their natural widths where they fit', () => {
    expect(fitTableColumns([6, 18, 10, 9, 6], 80, [2, 3], 2)).toEqual([
      { index: 0, width: 6 },
      { index: 1, width: 18 },
      { index: 2, width: 10 },
      { index: 3, width: 9 },
      { index: 4, width: 6 },
    ]);
  });

  it('leaves out the columns that give way, first named first, only as far as it must', () => {
    expect(fitTableColumns([6, 18, 10, 9, 6], 50, [2, 3], 2).map((c) => c.index)).toEqual([0, 1, 3, 4]);
    expect(fitTableColumns([6, 18, 10, 9, 6], 40, [2, 3], 2).map((c) => c.index)).toEqual([0, 1, 4]);
  });

  it('then takes cells from the widest of those left, so each still shows', () => {
    const cols = fitTableColumns([6, 18, 10, 9, 6], 20, [2, 3], 2);
    expect(cols.map((c) => c.index)).toEqual([0, 1, 4]);
    expect(cols.reduce((n, c) => n + c.width, 0) + 2 * (cols.length - 1)).toBe(20);
    // the name whole: the first column names the row
    expect(cols.map((c) => c.width)).toEqual([6, 4, 6]);
  });
});
