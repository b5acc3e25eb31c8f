/**
 * The Log, Keys, Providers and Stats tables in narrow terminals (ink-testing-library, a real
 * in-process daemon): the columns that matter most show, each at its own place, whole or cut with ….
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';
import { lines } from './harness.js';
import { showsScreen } from './screen-shown.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

let prefix = '';
const tui = tuiOnSharedDaemon(async (d) => {
  prefix = ((await d.admin('POST', '/admin/keys', { name: 'laptop' })).json() as { prefix: string }).prefix;
  d.deps.log(makeEntry({ keyName: 'laptop', modelAsked: 'anthropic/claude-sonnet-4-5', status: 429, errorCode: 'rate_limited' }));
});

const fits = (frame: string, columns: number) => {
  for (const l of lines(frame)) expect(textWidth(l), `${columns}: ${l}`).toBeLessThanOrEqual(columns);
};

describe('tables in a narrow terminal', () => {
  it('the Log shows time, model and status at 20 to 40 columns', async () => {
    for (const columns of [20, 30, 40]) {
      const h = await tui.open(columns, 12);
      const frame = await h.waitFor((f) => f.includes('LIVE 1'), `the row at ${columns}`);
      fits(frame, columns);
      const all = lines(frame);
      const header = all.find((l) => l.startsWith('TIME'))!;
      expect(header, `${columns}`).toMatch(/^TIME +MODEL +ST\b/);
      const row = all[all.indexOf(header) + 1]!.trimEnd();
      const what = `${columns}: ${row}`;
      expect(row, what).toMatch(/^\d\d:\d\d:\d\d /);
      expect(row, what).toMatch(/ 429(\s|$)/);
      const model = row.slice(9).split(/\s+/)[0]!;
      expect(model.endsWith('…') ? 'anthropic/claude-sonnet-4-5'.startsWith(model.slice(0, -1)) : model === 'anthropic/claude-sonnet-4-5', what).toBe(true);
    }
  });

  it('Keys shows name, prefix and state at 20 to 40 columns; a narrow prefix shows its end', async () => {
    for (const columns of [20, 30, 40]) {
      const h = await tui.open(columns, 12);
      await h.press('2');
      const frame = await h.waitFor((f) => showsScreen(f, '2') && lines(f).some((l) => l.startsWith('lapt')), `the key at ${columns}`);
      fits(frame, columns);
      const all = lines(frame);
      const header = all.find((l) => l.startsWith('NAME'))!;
      expect(header, `${columns}`).toMatch(/^NAME +PRE.* +STATE$/);
      const row = all[all.indexOf(header) + 1]!.trimEnd();
      expect(row, `${columns}: ${row}`).toMatch(/^laptop +\S+ +active$/);
      // every key starts sk-svc-proxy-: where the prefix is cut, the part that tells keys apart shows
      const shown = row.split(/ +/)[1]!;
      if (shown === `${prefix}…`) continue;
      expect(shown, `${columns}: ${row}`).toMatch(/^….{3,}$/);
      expect(prefix.endsWith(shown.slice(1)), `${columns}: ${row} (prefix ${prefix})`).toBe(true);
    }
  });

  it('Providers keeps the name, whether it is connected and, from 30 columns, its models; at 40 the credential in a word', async () => {
    for (const columns of [20, 30, 40]) {
      const h = await tui.open(columns, 12);
      await h.press('4');
      const frame = await h.waitFor((f) => showsScreen(f, '4') && lines(f).some((l) => l.startsWith('anthropic')), `the providers at ${columns}`);
      fits(frame, columns);
      const all = lines(frame);
      const header = all.find((l) => l.startsWith('NAME'))!.trimEnd();
      const what = `${columns}: ${header}`;
      // each column whole or cut with … at its own end, never the line cut after the next one's start
      expect(header, what).toMatch(columns < 30 ? /^NAME +CONNECT\S*$/ : columns < 40 ? /^NAME +CONNECTED +MODELS$/ : /^NAME +CONNECTED +KEY +MODELS$/);
      expect(all[all.indexOf(header) + 1]!.trimEnd(), what).toMatch(columns < 30 ? /^anthropic +no$/ : columns < 40 ? /^anthropic +no +-$/ : /^anthropic +no +- +-$/);
    }
  });

  // the figures least needed go first; what is left is whole, in the table's order
  const DROPPED_FIRST = ['TTFB', 'P95', 'OUT', 'IN', 'P50'];
  const expectFigures = (figures: string[], columns: number) => {
    const what = `${columns}: ${figures.join(' ')}`;
    expect(figures.slice(0, 2), what).toEqual(['REQ', 'ERR%']);
    if (columns >= 30) expect(figures, what).toContain('P50');
    const kept = DROPPED_FIRST.filter((f) => figures.includes(f));
    expect(kept, what).toEqual(DROPPED_FIRST.slice(DROPPED_FIRST.length - kept.length));
    expect(figures.slice(2), what).toEqual(['IN', 'OUT', 'P50', 'P95', 'TTFB'].filter((f) => kept.includes(f)));
  };

  it('Stats shrinks a long name before figures go; requests and errors stay, p50 from 30 columns', async () => {
    for (const columns of [20, 30, 40]) {
      const h = await tui.open(columns, 12);
      await h.press('5');
      let frame = await h.waitFor((f) => showsScreen(f, '5') && lines(f).some((l) => l.startsWith('openai ')), `the stats at ${columns}`);
      fits(frame, columns);
      let all = lines(frame);
      let header = all.find((l) => l.startsWith('PROVIDER'))!.trimEnd();
      const figures = header.split(/ +/).slice(1);
      expectFigures(figures, columns);
      const row = all[all.indexOf(header) + 1]!.trimEnd();
      expect(row.split(/ +/), `${columns}: ${row}`).toHaveLength(figures.length + 1);
      expect(row, `${columns}: ${row}`).toMatch(/^openai +1 +100%/);

      // by model: openai/gpt-5 is longer than the least a name keeps, so it gives up cells, the figures stay
      await h.press('b');
      frame = await h.waitFor((f) => lines(f).some((l) => l.startsWith('MODEL')) && lines(f).some((l) => l.startsWith('openai/')), `by model at ${columns}`);
      fits(frame, columns);
      all = lines(frame);
      header = all.find((l) => l.startsWith('MODEL'))!.trimEnd();
      expect(header.split(/ +/).slice(1), `${columns}: ${header}`).toEqual(figures);
      const name = all[all.indexOf(header) + 1]!.split(/ +/)[0]!;
      expect(name === 'openai/gpt-5' || (name.endsWith('…') && 'openai/gpt-5'.startsWith(name.slice(0, -1))), `${columns}: ${name}`).toBe(true);
      if (columns === 20) expect(name).toBe('openai/g…');
    }
  });
});
