/**
 * Every screen, its help and the Log's detail at four terminal sizes (ink-testing-library, a real
 * in-process daemon): no line runs past the width, and each says how to leave it (q quit on a
 * screen, how to close the help, Esc back from a detail).
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, lines, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

const tui = tuiOnSharedDaemon(async (d) => {
  await d.admin('POST', '/admin/keys', { name: 'laptop' });
  await d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'fast', targets: ['openai/gpt-5'] }] });
  d.deps.log(makeEntry({ keyName: 'laptop', provider: 'openai', modelAsked: 'openai/gpt-5', status: 200 }));
});

// each screen's key and a word its loaded content shows
const SCREENS = [
  { key: '1', loaded: 'LIVE 1' },
  { key: '2', loaded: 'laptop' },
  { key: '3', loaded: 'work' },
  { key: '4', loaded: 'anthropic' },
  { key: '5', loaded: 'openai' },
];

const SIZES = [[20, 10], [30, 12], [40, 15], [80, 24]] as const;

function expectWithin(frame: string, columns: number, rows: number, what: string) {
  const all = lines(frame);
  expect(all, `${what}:\n${frame}`).toHaveLength(rows - 1);
  for (const l of all) expect(textWidth(l), `${what}: ${l}\n${frame}`).toBeLessThanOrEqual(columns);
}

async function open(h: TuiHarness, key: string, loaded: string, what: string): Promise<string> {
  await h.press(key);
  return h.waitFor((f) => showsScreen(f, key) && lines(f).slice(2).some((l) => l.includes(loaded)), what);
}

describe('every screen at 20x10, 30x12, 40x15 and 80x24', () => {
  for (const [columns, rows] of SIZES) {
    it(`at ${columns}x${rows}: within the width, with the way out`, async () => {
      const h = await tui.open(columns, rows);
      for (const s of SCREENS) {
        const what = `screen ${s.key} at ${columns}x${rows}`;
        const frame = await open(h, s.key, s.loaded, what);
        expectWithin(frame, columns, rows, what);
        expect(frame, `${what}:\n${frame}`).toContain('q quit');

        await h.press('?');
        const help = await h.waitFor((f) => /(Any key closes|Press any key to close|other keys? close|Esc)/.test(f), `${what}, its help`);
        expectWithin(help, columns, rows, `${what}, its help`);
        await h.press(KEYS.escape);
        await h.waitFor((f) => f.includes(s.loaded) && !/(Any key closes|Press any key to close|other keys? close)/.test(f), `${what}, back from its help`);
      }

      await h.press('1');
      await h.waitFor((f) => f.includes('LIVE 1'), 'the log');
      await h.press(KEYS.enter);
      const detail = await h.waitFor((f) => f.includes('Request req_'), `the detail at ${columns}x${rows}`);
      expectWithin(detail, columns, rows, `the detail at ${columns}x${rows}`);
      expect(detail, `the detail at ${columns}x${rows}`).toMatch(/Esc(\/Enter)? back/);
      await h.press(KEYS.escape);
      await h.waitFor((f) => f.includes('LIVE 1'), 'back to the log');
    });
  }
});

// a field, a wizard or a question on each screen: what opens it, and how it says to leave
const MODES = [
  { screen: '2', loaded: 'laptop', key: 'n', out: /Esc cancel/ },
  { screen: '2', loaded: 'laptop', key: 'd', out: /\[y\/N\]/ },
  { screen: '3', loaded: 'work', key: 'a', out: /Esc cancel/ },
  { screen: '3', loaded: 'work', key: 'n', out: /Esc cancel/ },
  { screen: '3', loaded: 'work', key: 'e', out: /Esc cancel/, first: KEYS.down },
  // the selected name is the list's one row at 20x10: no group slug in view
  { screen: '3', loaded: 'Model groups', key: 'd', out: /\[y\/N\]/ },
  { screen: '4', loaded: 'anthropic', key: 'c', out: /Esc cancel/ },
  { screen: '4', loaded: 'anthropic', key: 'u', out: /Esc cancel/ },
  { screen: '4', loaded: 'anthropic', key: 'h', out: /Esc cancel/ },
  { screen: '4', loaded: 'anthropic', key: 'e', out: /Esc cancel/ },
  { screen: '4', loaded: 'anthropic', key: 'l', out: /Esc cancel/ },
];

describe('every field, wizard and question at 20x10, 30x12, 40x15 and 80x24', () => {
  for (const [columns, rows] of SIZES) {
    it(`at ${columns}x${rows}: within the width, with the way out`, async () => {
      const h = await tui.open(columns, rows);
      for (const m of MODES) {
        const what = `${m.key} on screen ${m.screen} at ${columns}x${rows}`;
        await open(h, m.screen, m.loaded, what);
        if (m.first) await h.press(m.first);
        await h.press(m.key);
        const frame = await h.waitFor((f) => m.out.test(f.replace(/\s+/g, ' ')), what).catch((err: Error) => {
          throw new Error(`${what}: ${err.message}`);
        });
        expectWithin(frame, columns, rows, what);
        await h.press(KEYS.escape);
        await h.waitFor((f) => !m.out.test(f.replace(/\s+/g, ' ')), `${what}, closed`);
      }
    });
  }
});
