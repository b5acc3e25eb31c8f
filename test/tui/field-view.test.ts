import { describe, expect, it } from 'vitest';
import { fieldView, type FieldView } from '../../src/tui/field-view.js';
import { textWidth } from '../../src/util/text-width.js';

/** The view as one line, the cursor's cell in [ ]. */
const line = (v: FieldView) => `${v.before}[${v.at}]${v.after}`;
const cells = (v: FieldView) => textWidth(v.before + v.at + v.after);

const URL = 'https://gateway.example.com/openai/v1';

describe('a field value in view', () => {
  it('shows all of a value that fits, the cursor a blank cell after its end or on its grapheme', () => {
    expect(line(fieldView('corp', 4, 20, Infinity))).toBe('corp[ ]');
    expect(line(fieldView('corp', 1, 20, Infinity))).toBe('c[o]rp ');
    expect(line(fieldView('', 0, 20, Infinity))).toBe('[ ]');
  });

  it('a new field longer than its room shows its end, … for its start', () => {
    const v = fieldView(URL, URL.length, 12, Infinity);
    expect(line(v)).toBe('…/openai/v1[ ]');
    expect(cells(v)).toBe(12);
  });

  it('scrolls no more than keeps the cursor in view: back through the value, then on again', () => {
    let v = fieldView(URL, URL.length, 12, Infinity);
    const start = v.start;
    // the cursor walks back across the view before the view moves
    v = fieldView(URL, URL.length - 5, 12, v.start);
    expect(line(v)).toBe('…/open[a]i/v1 ');
    expect(v.start).toBe(start);
    // at the view's first cell and past it: the view follows, … on both sides
    v = fieldView(URL, 8, 12, v.start);
    expect(line(v)).toBe('…[g]ateway.ex…');
    expect(v.start).toBe(8);
    // Home: the start, no … before it
    v = fieldView(URL, 0, 12, v.start);
    expect(line(v)).toBe('[h]ttps://gat…');
    expect(cells(v)).toBe(12);
    // Right walks the cursor across before the view moves, then it moves a cell at a time
    v = fieldView(URL, 10, 12, v.start);
    expect(line(v)).toBe('https://ga[t]…');
    v = fieldView(URL, 11, 12, v.start);
    expect(line(v)).toBe('…tps://gat[e]…');
    for (const c of [0, 5, 11, 20, URL.length]) expect(cells(fieldView(URL, c, 12, 0)), `cursor ${c}`).toBeLessThanOrEqual(12);
  });

  it('a value cut short takes back what its start left off, so the view never ends in empty room', () => {
    const long = fieldView(URL, URL.length, 12, Infinity);
    const shorter = URL.slice(0, -3);
    expect(line(fieldView(shorter, shorter.length, 12, long.start))).toBe('…com/openai[ ]');
  });

  it('keeps a wide character whole at either edge', () => {
    const wide = '漢字漢字漢字漢字';
    for (let c = 0; c <= wide.length; c++) {
      const v = fieldView(wide, c, 7, 0);
      expect(cells(v), `cursor ${c}: ${line(v)}`).toBeLessThanOrEqual(7);
      expect(v.at, `cursor ${c}`).toBe(c < wide.length ? wide[c] : ' ');
    }
  });
});
