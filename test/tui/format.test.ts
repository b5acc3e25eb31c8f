import { describe, expect, it } from 'vitest';
import { clip, row, widthsOf } from '../../src/tui/format.js';
import { textWidth } from '../../src/util/text-width.js';

describe('table text by display width', () => {
  it('clip keeps within the cells, not the UTF-16 length', () => {
    expect(clip('日本語のキー', 5)).toBe('日本…');
    expect(textWidth(clip('👍👍👍', 4))).toBeLessThanOrEqual(4);
    expect(clip('e\u0301e\u0301e\u0301', 3)).toBe('e\u0301e\u0301e\u0301'); // 3 cells, not 6 characters
  });

  it('widthsOf measures cells, and row lines the columns up', () => {
    const rows = [['NAME', 'STATE'], ['日本語', 'on'], ['cafe\u0301', 'off']];
    expect(widthsOf(rows, [20, 20])).toEqual([6, 5]);
    const lines = rows.map((r) => row(r, [6, 5], 40));
    const stateAt = (l: string, cell: string) => textWidth(l.slice(0, l.indexOf(cell)));
    expect(stateAt(lines[0]!, 'STATE')).toBe(8);
    expect(stateAt(lines[1]!, 'on')).toBe(8);
    expect(stateAt(lines[2]!, 'off')).toBe(8);
    expect(textWidth(row(['日本語日本語日本語', 'x'], [4, 5], 12))).toBeLessThanOrEqual(12);
  });
});
