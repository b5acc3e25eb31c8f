import { describe, expect, it } from 'vitest';
import { helpPage } from '../../src/tui/help-page.js';
import { helpRows, type HelpEntry } from '../../src/tui/help-lines.js';
import { textWidth } from '../../src/util/text-width.js';

const entries: HelpEntry[] = ['Keys', ...Array.from({ length: 12 }, (_, i) => [`k${i}`, `does thing number ${i}`] as const)];

describe('the help page', () => {
  it('shows every row and how to close when they fit', () => {
    const all = helpRows(entries, 80);
    const p = helpPage(all, 5, 24, 80);
    expect(p.rows.slice(0, -1)).toEqual(all);
    expect(p.rows.at(-1)!.text).toBe('Press any key to close.');
    expect(p.scrollable).toBe(0);
  });

  it('in a short terminal, the rows from the offset, then which rows show and how to scroll', () => {
    const all = helpRows(entries, 80);
    const top = helpPage(all, 0, 6, 80);
    expect(top.rows.map((r) => r.text.trim())).toEqual(['Keys', 'does thing number 0', 'does thing number 1', 'does thing number 2', 'does thing number 3', 'rows 1–5 of 13 · ↑↓ PgUp PgDn scroll · any other key closes']);
    expect(top.page).toBe(5);
    expect(top.scrollable).toBe(9); // offsets 0..8: the last page ends on the last row
    const end = helpPage(all, 99, 6, 80);
    expect(end.offset).toBe(8);
    expect(end.rows.at(-2)!.text.trim()).toBe('does thing number 11');
    expect(end.rows.at(-1)!.text).toBe('rows 9–13 of 13 · ↑↓ PgUp PgDn scroll · any other key closes');
  });

  it('says which rows show at every width down to 20, whole', () => {
    for (const width of [20, 30, 40, 60]) {
      const all = helpRows(entries, width);
      const note = helpPage(all, 3, 8, width).rows.at(-1)!.text;
      expect(textWidth(note), note).toBeLessThanOrEqual(width);
      expect(note, `${width}`).toMatch(new RegExp(`^(rows )?4–10(/| of )${all.length}`));
      expect(note, `${width}`).not.toContain('…');
    }
  });
});
