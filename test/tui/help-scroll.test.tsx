/**
 * The help in a short terminal (ink-testing-library, a real in-process daemon): it scrolls with
 * the keys the rest of the TUI moves with, its last line says which rows show, other keys close it.
 */
import { describe, expect, it } from 'vitest';
import { GLOBAL_KEYS, SCREEN_KEYS } from '../../src/tui/screens/screens.js';
import { textWidth } from '../../src/util/text-width.js';
import { KEYS, lines } from './harness.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

const PAGE_DOWN = '\x1b[6~';
const PAGE_UP = '\x1b[5~';
const NOTE = /^(rows )?(\d+)–(\d+)(\/| of )(\d+)/;

const tui = tuiOnSharedDaemon();

/** The help's rows (below the tab bar and status line) and its last line, parsed. */
function helpOf(frame: string) {
  const all = lines(frame).slice(2);
  const note = all.filter((l) => NOTE.test(l)).at(-1)!;
  const [, , from, to, , of] = NOTE.exec(note)!;
  return { rows: all.slice(0, all.indexOf(note)), note: note.trimEnd(), from: Number(from), to: Number(to), of: Number(of) };
}

describe('the help in a short terminal', () => {
  for (const [columns, rows] of [[80, 12], [40, 15], [30, 12], [20, 10]] as const) {
    it(`at ${columns}x${rows} scrolls through every key with ↓ PgDn End, back with PgUp Home; another key closes it`, async () => {
      const h = await tui.open(columns, rows);
      await h.press('?');
      let frame = await h.waitFor((f) => lines(f).some((l) => NOTE.test(l)), 'the help');
      const page = helpOf(frame);
      expect(page.from).toBe(1);
      expect(page.of).toBeGreaterThan(page.to);
      const seen = new Set(page.rows);
      for (const l of lines(frame)) expect(textWidth(l), l).toBeLessThanOrEqual(columns);
      expect(page.note).not.toContain('…');

      await h.press(KEYS.down);
      frame = await h.waitFor((f) => helpOf(f).from === 2, 'one row down');
      // PgDn a page at a time, to the end
      let last = helpOf(frame);
      last.rows.forEach((r) => seen.add(r));
      while (last.to < last.of) {
        await h.press(PAGE_DOWN);
        const before = last.from;
        frame = await h.waitFor((f) => helpOf(f).from > before, 'the next page');
        last = helpOf(frame);
        last.rows.forEach((r) => seen.add(r));
        for (const l of lines(frame)) expect(textWidth(l), l).toBeLessThanOrEqual(columns);
      }
      // every key of the screen and of everywhere was on some page, at the start of its row
      for (const [key] of [...SCREEN_KEYS.log, ...GLOBAL_KEYS]) {
        const first = key.split(' ')[0]!;
        expect([...seen].some((r) => r.startsWith(`  ${first}`)), `${key} at ${columns}x${rows}`).toBe(true);
      }
      expect(last.rows.some((r) => r.includes('quit')), 'the last page ends with quit').toBe(true);

      await h.press(PAGE_UP);
      frame = await h.waitFor((f) => helpOf(f).to < last.of, 'a page up');
      await h.press(KEYS.home);
      await h.waitFor((f) => helpOf(f).from === 1, 'the top again');
      await h.press(KEYS.end);
      await h.waitFor((f) => helpOf(f).to === last.of, 'the end again');

      await h.press('x');
      await h.waitFor((f) => f.includes('LIVE'), 'the log again');
    });
  }

  it('where every row fits, any key closes it, ↓ too', async () => {
    const h = await tui.open(80, 40);
    await h.press('?');
    const frame = await h.waitFor((f) => f.includes('Press any key to close.'), 'the help');
    expect(lines(frame).some((l) => NOTE.test(l))).toBe(false);
    await h.press(KEYS.down);
    await h.waitFor((f) => f.includes('LIVE'), 'the log again');
  });
});
