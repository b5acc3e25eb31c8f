/** The stats screen against a real daemon: its request log summed by provider, model and key, over each window. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { rowDetail } from '../../src/tui/screens/StatsScreen.js';
import { removeTempDirs } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const row = (frame: string, name: string) => lines(frame).find((l) => l.trimStart().startsWith(name)) ?? '';

/** Every summary the TUI asks its daemon for fails from now on (until vi.restoreAllMocks). */
function failSummaries(tui: TuiHarness): void {
  const state = tui.link.state;
  if (state.status !== 'connected') throw new Error('the TUI is not connected');
  vi.spyOn(state.backend.logs, 'stats').mockRejectedValue(new Error('summary unavailable'));
}

describe('stats screen', () => {
  it('sums the log by provider, then model, then key; t widens the window; the selected row is spelled out', async () => {
    h = await startTui({ initialScreen: 'stats' });
    await h.waitFor((f) => f.includes('No requests in the last 24 hours.'), 'the empty summary');

    h.log(
      makeEntry({ provider: 'anthropic', model: 'claude-sonnet-4-5', keyName: 'laptop', latencyMs: 1_000, usage: { input: 12_000, output: 300, cached: 9_000 } }),
      makeEntry({ provider: 'anthropic', model: 'claude-sonnet-4-5', keyName: 'laptop', latencyMs: 3_000, usage: { input: 8_000, output: 700 }, streamed: true, ttfbMs: 450 }),
      makeEntry({ provider: 'anthropic', model: 'claude-haiku-4-5', keyName: 'ci', status: 429, errorCode: 'rate_limited', latencyMs: 50, usage: undefined }),
      makeEntry({ provider: 'openai', model: 'gpt-5.4', keyName: 'ci', latencyMs: 2_000, usage: { input: 100, output: 60, reasoning: 40 } }),
      // three days old: only in the 7-day and whole-log windows
      makeEntry({ time: ago(3 * 86_400_000), provider: 'gemini', model: 'gemini-2.5-pro', keyName: 'old' }),
    );
    await h.press('r');
    let f = await h.waitFor((fr) => fr.includes('TOTAL'), 'the rows by provider');
    expect(f).toContain('last 24 hours, by provider');
    expect(row(f, 'anthropic')).toMatch(/^anthropic\s+3\s+33%\s+20k\s+1\.0k\s+1\.00s\s+3\.00s\s+450ms$/);
    expect(row(f, 'openai')).toMatch(/^openai\s+1\s+0%\s+100\s+60\s+2\.00s\s+2\.00s\s+-$/);
    expect(row(f, 'TOTAL')).toMatch(/^TOTAL\s+4\s+25%\s+20k\s+1\.1k\s+/);
    expect(f).not.toContain('gemini');
    // the first row is selected: every figure of it under the table
    expect(lines(f).map((l) => l.trim()).join(' ')).toContain('anthropic: 3 requests (1 streamed) · 1 error · 0 fell back · in 20k (cached 9.0k) · out 1.0k (reasoning 0) · p50 1.00s p95 3.00s · TTFB p50 450ms');

    await h.press('b');
    f = await h.waitFor((fr) => fr.includes('by model'), 'the rows by model');
    f = await h.waitFor((fr) => fr.includes('anthropic/claude-haiku-4-5'), 'the model rows');
    expect(row(f, 'anthropic/claude-sonnet-4-5')).toMatch(/\s2\s+0%\s/);
    expect(row(f, 'anthropic/claude-haiku-4-5')).toMatch(/\s1\s+100%\s/);

    await h.press('b');
    f = await h.waitFor((fr) => fr.includes('by key') && row(fr, 'laptop') !== '', 'the rows by key');
    expect(row(f, 'ci')).toMatch(/^ci\s+2\s+50%\s/);

    await h.press('t');
    f = await h.waitFor((fr) => fr.includes('last 7 days, by key') && row(fr, 'old') !== '', 'the week');
    expect(row(f, 'TOTAL')).toMatch(/^TOTAL\s+5\s/);
    await h.press('t', 't');
    f = await h.waitFor((fr) => fr.includes('last hour, by key') && row(fr, 'TOTAL').match(/^TOTAL\s+4\s/) !== null, 'the hour');
    expect(f).not.toMatch(/^\s*old\s/m);

    // moving down selects the next row, and the line below follows
    await h.press(KEYS.down);
    const first = row(f, 'TOTAL') === '' ? '' : lines(f)[4]!.trim().split(/\s+/)[0]!;
    const second = lines(f)[5]!.trim().split(/\s+/)[0]!;
    expect(f).toContain(`${first}: `);
    await h.waitFor((fr) => fr.includes(`${second}: 2 requests`), 'the second row spelled out');
  });

  it('says which figures it spells out: errors, fallbacks, reasoning; cancelled and TTFB only where there was one', () => {
    const row = { name: 'x', requests: 1, errors: 0, cancelled: 0, fallbacks: 1, streamed: 0, inputTokens: 5, outputTokens: 2, cachedTokens: 0, reasoningTokens: 1, p50LatencyMs: 20, p95LatencyMs: 20, p50TtfbMs: null };
    expect(rowDetail(row)).toBe('x: 1 request (0 streamed) · 0 errors · 1 fell back · in 5 (cached 0) · out 2 (reasoning 1) · p50 20ms p95 20ms');
    expect(rowDetail({ ...row, requests: 3, cancelled: 2 })).toBe('x: 3 requests (0 streamed) · 0 errors · 2 cancelled by the client · 1 fell back · in 5 (cached 0) · out 2 (reasoning 1) · p50 20ms p95 20ms');
  });
});

describe('the selected row in a narrow terminal', () => {
  it('is spelled out whole where its lines hold it, else its last line ends in …', async () => {
    const d = await startInProcess();
    d.deps.log(makeEntry({ provider: 'anthropic', model: 'claude-sonnet-4-5', keyName: 'laptop', latencyMs: 1_000, usage: { input: 12_000, output: 300, cached: 9_000 } }));
    for (const [columns, rows] of [[20, 10], [30, 12], [40, 15], [40, 24], [60, 24]] as const) {
      h = await startTui({ initialScreen: 'stats', size: { columns, rows }, daemon: d });
      const frame = await h.waitFor((f) => lines(f).some((l) => l.startsWith('anthropic: ')), `the row spelled out at ${columns}x${rows}`);
      const all = lines(frame);
      for (const l of all) expect(l.length, `${columns}x${rows}: ${l}`).toBeLessThanOrEqual(columns);
      const from = all.findIndex((l) => l.startsWith('anthropic: '));
      // up to a blank line, the global keys, or the frame's end (no error: nothing under it)
      const to = all.findIndex((l, i) => i > from && (l.trim() === '' || l.startsWith('? help')));
      const detail = all.slice(from, to < 0 ? undefined : to).map((l) => l.trimEnd());
      const what = `${columns}x${rows}:\n${detail.join('\n')}`;
      const whole = /p95 \S+$/.test(detail.join(' '));
      expect(whole || detail.at(-1)!.endsWith('…'), what).toBe(true);
      // 40 columns of a tall terminal hold it all
      if (rows >= 24) expect(whole, what).toBe(true);
      await h.close();
      h = undefined;
    }
    await d.daemon.stop('test over');
  });
});

describe('a short terminal', () => {
  it('shows every row, no blank line; an error takes the selected row’s lines, not the table’s', async () => {
    const d = await startInProcess();
    // 40x12: a heading, the table's header, four rows, then the selected row in three lines
    for (const provider of ['anthropic', 'openai', 'gemini']) d.deps.log(makeEntry({ provider, model: 'm' }));
    h = await startTui({ initialScreen: 'stats', size: { columns: 40, rows: 12 }, daemon: d });
    const frame = await h.waitFor((f) => lines(f).some((l) => l.startsWith('anthropic: ')), 'the rows');
    const all = lines(frame);
    for (const name of ['anthropic', 'openai', 'gemini', 'TOTAL']) expect(row(frame, `${name} `), `${name}:\n${frame}`).not.toBe('');
    expect(all.filter((l) => l.trim() === ''), frame).toEqual([]);

    // a failed summary gets the lines under the table, wrapped; every row still shows
    failSummaries(h);
    await h.press('r');
    const failed = await h.waitFor((f) => f.replace(/\n/g, ' ').includes('summary unavailable'), 'the error');
    expect(lines(failed), failed).toHaveLength(11);
    expect(lines(failed).some((l) => l.startsWith('✗ ')), failed).toBe(true);
    for (const name of ['anthropic', 'openai', 'gemini', 'TOTAL']) expect(row(failed, `${name} `), `${name}:\n${failed}`).not.toBe('');
    vi.restoreAllMocks();
    await h.close();
    h = undefined;
    await d.daemon.stop('test over');
  });
});

describe('a summary that fails, then comes back', () => {
  it('keeps every row on its screen line: the error takes the selected row’s lines, and says since when the figures stand', async () => {
    const d = await startInProcess();
    // 80x12: the table has room for fewer rows than there are, so a table that lost rows to the
    // error would scroll the selected TOTAL row up
    const names = ['anthropic', 'openai', 'gemini', 'openrouter', 'ollama', 'lmstudio'];
    for (const provider of names) d.deps.log(makeEntry({ provider, model: 'm' }));
    h = await startTui({ initialScreen: 'stats', size: { columns: 80, rows: 12 }, daemon: d });
    await h.waitFor((f) => lines(f).some((l) => l.startsWith('anthropic: ')), 'the rows');
    await h.press(KEYS.end);
    const good = await h.waitFor((f) => lines(f).some((l) => l.startsWith('TOTAL: ')), 'the total selected');
    // the table: from its header to the line over the selected row's figures
    const tableOf = (f: string) => {
      const all = lines(f);
      const from = all.findIndex((l) => l.startsWith('PROVIDER'));
      const to = all.findIndex((l, i) => i > from && /^(TOTAL: |✗ )/.test(l));
      return all.slice(from, to);
    };
    const table = tableOf(good);
    expect(table.some((l) => l.startsWith('TOTAL ')), good).toBe(true);

    failSummaries(h);
    await h.press('r');
    const failed = await h.waitFor((f) => f.includes('summary unavailable'), 'the error');
    expect(lines(failed).indexOf(table[0]!), failed).toBe(lines(good).indexOf(table[0]!));
    expect(tableOf(failed), failed).toEqual(table);
    // the figures shown are the last good ones, and it says from when
    expect(failed, failed).toMatch(/✗ not updated since \d\d:\d\d:\d\d: summary unavailable/);

    vi.restoreAllMocks();
    await h.press('r');
    const back = await h.waitFor((f) => !f.includes('summary unavailable') && lines(f).some((l) => l.startsWith('TOTAL: ')), 'the summary back');
    expect(lines(back).indexOf(table[0]!), back).toBe(lines(good).indexOf(table[0]!));
    expect(tableOf(back), back).toEqual(table);
    await h.close();
    h = undefined;
    await d.daemon.stop('test over');
  });

  it('says there are no figures, not that there were no requests, when the first summary fails', async () => {
    const d = await startInProcess();
    d.deps.log(makeEntry({ provider: 'anthropic', model: 'm' }));
    h = await startTui({ initialScreen: 'stats', daemon: d });
    await h.waitFor((f) => lines(f).some((l) => l.startsWith('anthropic: ')), 'the rows');
    failSummaries(h);
    // a window never summed before: no figures of it at all
    await h.press('t');
    const failed = await h.waitFor((f) => f.includes('last 7 days') && f.includes('summary unavailable'), 'the error');
    expect(failed).not.toContain('No requests');
    expect(failed).not.toContain('not updated since');
    expect(failed).toContain('No figures');
    vi.restoreAllMocks();
    await h.close();
    h = undefined;
    await d.daemon.stop('test over');
  });

  it('says Loading… while a new grouping is asked for, not the error of the one asked before', async () => {
    const d = await startInProcess();
    d.deps.log(makeEntry({ provider: 'anthropic', model: 'claude-sonnet-4-5' }));
    h = await startTui({ initialScreen: 'stats', daemon: d });
    await h.waitFor((f) => lines(f).some((l) => l.startsWith('anthropic: ')), 'the rows');
    const state = h.link.state;
    if (state.status !== 'connected') throw new Error('the TUI is not connected');
    const summary = state.backend.logs.stats.bind(state.backend.logs);
    failSummaries(h);
    await h.press('t');
    await h.waitFor((f) => f.includes('last 7 days') && f.includes('summary unavailable'), 'the error');
    // the next summary is asked for but has not answered yet
    let answer: () => void = () => {};
    vi.spyOn(state.backend.logs, 'stats').mockImplementation((...args) => new Promise((resolve) => (answer = () => resolve(summary(...args)))));
    const before = h.ui.frames.length;
    await h.press('b');
    const waiting = await h.waitFor((f) => f.includes('last 7 days, by model'), 'the new grouping');
    expect(waiting).toContain('Loading…');
    // not one frame under the new title, the first included, shows the old grouping's error
    const underNewTitle = h.ui.frames.slice(before).filter((f) => f.includes('last 7 days, by model'));
    expect(underNewTitle.length).toBeGreaterThan(0);
    for (const f of underNewTitle) {
      expect(f).not.toContain('No figures');
      expect(f).not.toContain('summary unavailable');
    }
    answer();
    await h.waitFor((f) => lines(f).some((l) => l.startsWith('anthropic/claude-sonnet-4-5: ')), 'the rows by model');
    vi.restoreAllMocks();
    await h.close();
    h = undefined;
    await d.daemon.stop('test over');
  });
});
