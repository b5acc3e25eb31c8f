/**
 * The Keys screen's name field in the shortest terminals the TUI draws in (7 rows: the app keeps
 * 6 lines at least): the field's line, a refused name's reason and the way out (Esc) all stay in
 * view — the list over them gives up its rows, then the heading. Before, at 8 rows the reason took
 * the hint's row (no Esc), and at 7 the field's own line was pushed out of view.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { removeTempDirs } from '../daemon/harness.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

const FIELD = /^(Name for the new key|Key name|Name): ?/;

function expectWithin(frame: string, columns: number, rows: number, what: string) {
  expect(lines(frame), `${what}:\n${frame}`).toHaveLength(rows - 1);
  for (const l of lines(frame)) expect(textWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(columns);
}

describe('the Keys screen’s name field in a short terminal', () => {
  for (const [columns, rows] of [[20, 7], [40, 7], [80, 7], [80, 8], [20, 10]] as const) {
    it(`at ${columns}x${rows} keeps the field, a refusal's reason and Esc in view`, async () => {
      const what = `${columns}x${rows}`;
      h = await startTui({ initialScreen: 'keys', size: { columns, rows } });
      await h.d.admin('POST', '/admin/keys', { name: 'ci' });
      await h.press('r');
      await h.waitFor((f) => f.includes('ci '), 'the listed key');
      await h.press('n');
      let f = await h.waitFor((fr) => lines(fr).some((l) => l.startsWith('Esc cancel')), `the prompt at ${what}`);
      expect(lines(f).some((l) => FIELD.test(l)), `${what}:\n${f}`).toBe(true);
      expectWithin(f, columns, rows, what);

      await h.type('ci');
      await h.press(KEYS.enter);
      f = await h.waitFor((fr) => fr.includes('An active'), `the reason at ${what}`);
      expectWithin(f, columns, rows, what);
      const all = lines(f).map((l) => l.trimEnd());
      const field = all.findIndex((l) => FIELD.test(l));
      expect(field, `${what}:\n${f}`).toBeGreaterThanOrEqual(0);
      expect(all[field]!.endsWith(' ci'), `${what}:\n${f}`).toBe(true);
      // under it the reason (what to fix), then the way out
      expect(all[field + 1], `${what}:\n${f}`).toMatch(/^An active/);
      const wayOut = all.findIndex((l) => l.startsWith('Esc cancel'));
      expect(wayOut, `${what}:\n${f}`).toBeGreaterThan(field + 1);
      // at 20 columns the bottom line still says how to quit
      if (columns < 31) expect(all.at(-1), what).toBe('? help · q quit');

      await h.press(KEYS.escape);
      const closed = await h.waitFor((fr) => showsScreen(fr, '2') && !fr.includes('Esc cancel') && fr.includes('ci '), `the list again at ${what}`);
      expect(closed, what).not.toContain('An active');
      await h.close();
      h = undefined;
    });
  }
});
