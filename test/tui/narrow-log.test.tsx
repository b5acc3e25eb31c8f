/**
 * The Log screen in narrow and short terminals (ink-testing-library, a real in-process daemon):
 * what its footer lines, its detail view and the global keys show is whole at 20 to 80 columns.
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, lines } from './harness.js';
import { showsScreen } from './screen-shown.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

const WIDTHS = [80, 60, 40, 30, 20];
const squeezed = (text: string) => text.replace(/\s+/g, '');

const tui = tuiOnSharedDaemon((d) => {
  for (const e of [
    makeEntry({ keyName: 'alice', modelAsked: 'anthropic/claude-sonnet-4-5', status: 429, errorCode: 'rate_limited', latencyMs: 300 }),
    makeEntry({ keyName: 'bob', modelAsked: 'openai/gpt-5', status: 200, latencyMs: 100 }),
    makeEntry({ keyName: 'bob', modelAsked: 'openai/gpt-5', status: 200, latencyMs: 200 }),
  ])
    d.deps.log(e);
});

function expectFits(frame: string, columns: number, rows: number, what: string) {
  expect(lines(frame), what).toHaveLength(rows - 1);
  for (const l of lines(frame)) expect(textWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(columns);
}

describe('the Log screen in a narrow terminal', () => {
  it("the detail view's footer shows whole hints, the way back at every width", async () => {
    for (const [columns, rows] of WIDTHS.flatMap((c) => [[c, 24], [c, 10]] as const)) {
      const h = await tui.open(columns, rows);
      await h.waitFor((f) => f.includes('LIVE 3'), 'the rows');
      await h.press(KEYS.enter);
      const frame = await h.waitFor((f) => f.includes('Request req_'), `the detail at ${columns}x${rows}`);
      expectFits(frame, columns, rows, `${columns}x${rows}`);
      const footer = lines(frame).find((l) => l.startsWith('Esc'));
      expect(footer, `${columns}x${rows}:\n${frame}`).toBeDefined();
      expect(footer, `${columns}x${rows}`).not.toContain('…');
      expect(footer!.trimEnd(), `${columns}x${rows}`).toBe(columns >= 47 ? 'Esc/Enter back to the log · ↑↓ PgUp PgDn scroll' : 'Esc back · ↑↓ scroll');
    }
  });

  it('the 5-minute summary is whole at every width: shorter words first, then fewer parts', async () => {
    const seen: string[] = [];
    for (const columns of WIDTHS) {
      const h = await tui.open(columns, 24);
      const frame = await h.waitFor((f) => /^(last 5 min|5 min|5m)[: ][^…]*\/min/m.test(f), `the summary at ${columns}`);
      expectFits(frame, columns, 24, `${columns}`);
      const summary = lines(frame).find((l) => /^(last 5 min|5 min|5m)[: ]/.test(l))!.trimEnd();
      expect(summary, `${columns}`).not.toContain('…');
      expect(summary, `${columns}`).toMatch(/0\.6 ?(req)?\/min/);
      expect(summary, `${columns}`).toMatch(/err(ors)? 33%/);
      seen.push(summary);
    }
    expect(seen[0]).toBe('last 5 min: 0.6 req/min · errors 33% · p50 200ms · p95 300ms');
    expect(seen.at(-1)).toBe('5m 0.6/min err 33%');
  });

  it("an active filter is shown whole on lines of its own, or cut with … where they end", async () => {
    for (const [columns, rows] of WIDTHS.flatMap((c) => [[c, 24], [c, 10]] as const)) {
      const h = await tui.open(columns, rows);
      await h.waitFor((f) => f.includes('LIVE 3'), 'the rows');
      await h.press('s', 's', 'k'); // status 4xx, key alice
      await h.press('/');
      await h.waitFor((f) => f.includes('filter /'), 'the filter field');
      await h.type('claude-sonnet');
      await h.press(KEYS.enter);
      const frame = await h.waitFor((f) => f.includes('LIVE 1 of 3') && !f.includes('filter /'), `the filter at ${columns}x${rows}`);
      expectFits(frame, columns, rows, `${columns}x${rows}`);
      expect(frame, `${columns}x${rows}`).toMatch(/ 429( |$)/m); // the row it matches still shows
      const all = lines(frame);
      const from = all.findIndex((l) => l.startsWith('LIVE 1 of 3'));
      const to = all.findIndex((l) => /^(last 5 min|5 min|5m)[: ]/.test(l));
      const text = all.slice(from, to).join('\n');
      const whole = squeezed(text).includes(squeezed('/claude-sonnet · status 4xx · key alice'));
      // whole wherever two lines hold it; else what shows ends in …
      if (columns >= 30 && rows >= 24) expect(whole, `${columns}x${rows}:\n${text}`).toBe(true);
      if (!whole) expect(all[to - 1]!.trimEnd().endsWith('…'), `${columns}x${rows}:\n${text}`).toBe(true);
      expect(squeezed(text), `${columns}x${rows}:\n${text}`).toContain('/claude-s'); // what was typed shows first
    }
  });
});

describe('the global keys in a narrow terminal', () => {
  it('from 20 to 30 columns `? help` and `q quit` are on the bottom line of every screen; wider, on the tab bar', async () => {
    for (const columns of [20, 25, 30, 31, 40, 80]) {
      const h = await tui.open(columns, 12);
      for (const key of ['1', '2', '3', '4', '5']) {
        await h.press(key);
        const frame = await h.waitFor((f) => showsScreen(f, key), `screen ${key} at ${columns}`);
        expectFits(frame, columns, 12, `screen ${key} at ${columns}`);
        const all = lines(frame);
        if (columns <= 30) expect(all.at(-1)!.trimEnd(), `screen ${key} at ${columns}`).toBe('? help · q quit');
        else {
          expect(all[0]!.trimEnd(), `screen ${key} at ${columns}`).toMatch(/\? help {2}q quit$/);
          expect(frame.match(/q quit/g), `screen ${key} at ${columns}`).toHaveLength(1);
        }
      }
    }
  });
});
