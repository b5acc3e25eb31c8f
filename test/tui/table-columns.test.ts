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

describe('a column that shrinks first', () => {
  it('gives up cells, down to its least width, before any column is left out', () => {
    // a long name (40) and four figures: at 60 the name gives 5 cells, every figure stays
    expect(fitTableColumns([40, 3, 4, 5, 5], 60, [4, 3], 2, [{ index: 0, min: 8 }])).toEqual([
      { index: 0, width: 35 },
      { index: 1, width: 3 },
      { index: 2, width: 4 },
      { index: 3, width: 5 },
      { index: 4, width: 5 },
    ]);
  });

  it('then the columns go, and it keeps what they leave over', () => {
    // at 30 even an 8-cell name leaves no room for the last figure: it goes, the name takes 12
    expect(fitTableColumns([40, 3, 4, 5, 5], 30, [4, 3], 2, [{ index: 0, min: 8 }])).toEqual([
      { index: 0, width: 12 },
      { index: 1, width: 3 },
      { index: 2, width: 4 },
      { index: 3, width: 5 },
    ]);
    // at 20 two go; a name shorter than its least width keeps its own
    expect(fitTableColumns([40, 3, 4, 5, 5], 20, [4, 3], 2, [{ index: 0, min: 8 }]).map((c) => c.width)).toEqual([9, 3, 4]);
    expect(fitTableColumns([6, 3, 4, 5, 5], 20, [4, 3], 2, [{ index: 0, min: 8 }]).map((c) => c.width)).toEqual([6, 3, 4]);
  });
});

describe('a column of the drop order with a least width', () => {
  it('shrinks to it when its turn comes, where that is enough, and keeps its place', () => {
    // 2 and 1 go; 3 (natural 14) would go next, but it fits in 30 at 10 cells
    expect(fitTableColumns([10, 8, 20, 14, 6], 30, [2, 1, { index: 3, min: 8 }, 4], 2)).toEqual([
      { index: 0, width: 10 },
      { index: 3, width: 10 },
      { index: 4, width: 6 },
    ]);
    // the credential column of the Providers screen at 40: name, connected, credential, models
    expect(fitTableColumns([10, 9, 14, 6], 40, [{ index: 2, min: 8 }, 3], 2)).toEqual([
      { index: 0, width: 10 },
      { index: 1, width: 9 },
      { index: 2, width: 9 },
      { index: 3, width: 6 },
    ]);
  });

  it('keeps its natural width where the others fit, and goes where even its least width does not fit', () => {
    expect(fitTableColumns([10, 9, 14, 6], 60, [{ index: 2, min: 8 }, 3], 2).map((c) => c.width)).toEqual([10, 9, 14, 6]);
    expect(fitTableColumns([10, 9, 14, 6], 30, [{ index: 2, min: 8 }, 3], 2).map((c) => c.index)).toEqual([0, 1, 3]);
  });
});
