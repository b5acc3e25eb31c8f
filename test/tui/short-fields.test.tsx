/**
 * A field under a list in the shortest terminals the TUI draws in (7 rows: the app keeps 6 lines
 * at least) — the Keys screen's key name, the Providers screen's base URL and key, the Groups
 * screen's group name and targets: the field's line, a refused answer's reason and the way out
 * (Esc) all stay in view, the list over them giving up its rows, then the heading. Before, at 8 rows the reason took the hint's row (no Esc), and at
 * 7 the field's own line was pushed out of view.
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

const URL_FIELD = /^(Base URL for anthropic|Base URL|URL): ?/;
const KEY_FIELD = /^(API key for anthropic|API key|Key): /;

describe('the Providers screen’s fields in a short terminal', () => {
  for (const [columns, rows] of [[20, 7], [80, 7], [80, 8]] as const) {
    it(`at ${columns}x${rows} keeps the base URL field, its refusal's reason and Esc in view; and the key field`, async () => {
      const what = `${columns}x${rows}`;
      h = await startTui({ initialScreen: 'providers', size: { columns, rows } });
      await h.waitFor((f) => f.includes('anthropic'), 'the list');
      await h.press('u');
      await h.waitFor((fr) => lines(fr).some((l) => URL_FIELD.test(l)), `the URL field at ${what}`);
      await h.press('\x15');
      await h.type('127.0.0.1:8/v1');
      await h.press(KEYS.enter);
      // the reason under the field, cut where it has one line: "Base URL for anthro…"
      const reasonUnder = (fr: string) => /^Base URL for anthro/.test(lines(fr)[lines(fr).findIndex((l) => URL_FIELD.test(l)) + 1] ?? '');
      let f = await h.waitFor(reasonUnder, `the reason at ${what}`);
      expectWithin(f, columns, rows, what);
      let all = lines(f).map((l) => l.trimEnd());
      const field = all.findIndex((l) => URL_FIELD.test(l));
      expect(field, `${what}:\n${f}`).toBeGreaterThanOrEqual(0);
      expect(all.findIndex((l) => l.startsWith('Esc cancel')), `${what}:\n${f}`).toBeGreaterThan(field + 1);
      await h.press(KEYS.escape);
      await h.waitFor((fr) => !fr.includes('Esc cancel'), `the field closed at ${what}`);

      await h.press('c');
      f = await h.waitFor((fr) => lines(fr).some((l) => l.startsWith('Esc cancel')), `the key field at ${what}`);
      expectWithin(f, columns, rows, what);
      all = lines(f).map((l) => l.trimEnd());
      expect(all.some((l) => KEY_FIELD.test(l)), `${what}:\n${f}`).toBe(true);
      await h.press(KEYS.escape);
      await h.close();
      h = undefined;
    });
  }
});

const GROUP_FIELD = /^(New group name|Group name|Name): ?/;
const TARGETS_FIELD = /^(Targets of "fast"|Targets): ?/;

/** The field's line with `typed` at its end, the reason under it, the way out after. */
function expectFieldReasonWayOut(frame: string, field: RegExp, typed: string, reason: RegExp, what: string) {
  const all = lines(frame).map((l) => l.trimEnd());
  const at = all.findIndex((l) => field.test(l));
  expect(at, `${what}:\n${frame}`).toBeGreaterThanOrEqual(0);
  expect(all[at]!.endsWith(` ${typed}`), `${what}:\n${frame}`).toBe(true);
  expect(all[at + 1], `${what}:\n${frame}`).toMatch(reason);
  expect(all.findIndex((l) => l.startsWith('Esc cancel')), `${what}:\n${frame}`).toBeGreaterThan(at + 1);
}

describe('the Groups screen’s fields in a short terminal', () => {
  for (const [columns, rows] of [[20, 7], [40, 7], [80, 7], [80, 8]] as const) {
    it(`at ${columns}x${rows} keeps the group name and targets fields, their refusal's reason and Esc in view`, async () => {
      const what = `${columns}x${rows}`;
      h = await startTui({ initialScreen: 'groups', size: { columns, rows } });
      await h.d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'fast', targets: ['anthropic/claude-x'] }] });
      await h.press('r');
      await h.waitFor((f) => f.includes('▸ work'), 'the group');
      await h.press('a');
      await h.waitFor((fr) => lines(fr).some((l) => GROUP_FIELD.test(l)), `the group name field at ${what}`);
      await h.type('work');
      await h.press(KEYS.enter);
      let f = await h.waitFor((fr) => fr.includes('A group named'), `the reason at ${what}`);
      expectWithin(f, columns, rows, what);
      expectFieldReasonWayOut(f, GROUP_FIELD, 'work', /^A group named/, what);
      await h.press(KEYS.escape);
      await h.waitFor((fr) => !fr.includes('Esc cancel') && fr.includes('▸ work'), `the list again at ${what}`);

      // the name's row, then its targets
      await h.press(KEYS.down, 'e');
      await h.waitFor((fr) => lines(fr).some((l) => TARGETS_FIELD.test(l)), `the targets field at ${what}`);
      await h.press('\x15');
      await h.type('nope');
      await h.press(KEYS.enter);
      f = await h.waitFor((fr) => fr.includes('Target "nope"') || fr.includes('Target "no'), `the targets reason at ${what}`);
      expectWithin(f, columns, rows, what);
      expectFieldReasonWayOut(f, TARGETS_FIELD, 'nope', /^Target "/, what);
      await h.press(KEYS.escape);
      await h.close();
      h = undefined;
    });
  }
});
