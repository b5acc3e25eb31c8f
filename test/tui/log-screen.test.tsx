/** The log screen against a real daemon: live rows, filters, pause, detail pane, footer stats. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { AdminClient } from '../../src/cli/admin-client.js';
import { removeTempDirs } from '../daemon/harness.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, lines, sleep, startTui, type TuiHarness } from './harness.js';
import { textWidth } from '../../src/util/text-width.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});

/**
 * The summaries a TUI started after this asks its daemon for fail with `why` while `now` is true;
 * the feed and every other call still go through. (The TUI binds its client's `request` when it
 * connects, so this has to come first.)
 */
function summariesThatFail(why: string): { now: boolean } {
  const failing = { now: true };
  const request = AdminClient.prototype.request;
  vi.spyOn(AdminClient.prototype, 'request').mockImplementation(function (this: AdminClient, ...args: Parameters<AdminClient['request']>) {
    if (failing.now && args[1].startsWith('/admin/stats')) return Promise.reject(new Error(why));
    return request.apply(this, args);
  });
  return failing;
}
afterAll(removeTempDirs);

/** The data rows of the log table (between the header and the footer). */
function tableRows(frame: string): string[] {
  const all = lines(frame);
  const header = all.findIndex((l) => l.startsWith('TIME '));
  const footer = all.findIndex((l) => /^( PAUSED|LIVE|filter \/)/.test(l));
  return all.slice(header + 1, footer).filter((l) => l.trim() !== '');
}

describe('log screen', () => {
  it('shows requests as they arrive, newest on top, with every column that fits 80 columns', async () => {
    h = await startTui();
    expect(h.frame()).toContain('No requests yet');
    h.log(
      makeEntry({ modelAsked: 'openai/gpt-5', provider: 'openai', model: 'gpt-5', status: 200, latencyMs: 1234, ttfbMs: 321, streamed: true, usage: { input: 1200, output: 34 } }),
    );
    await h.waitFor((f) => f.includes('openai/gpt-5'), 'the first row');
    h.log(
      makeEntry({
        keyName: 'ci-bot',
        modelAsked: 'fast',
        base: 'group:work',
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        status: 200,
        fallback: true,
        attempts: [
          { target: 'openai/gpt-5-mini', status: 429, latencyMs: 40, errorCode: 'rate_limited' },
          { target: 'anthropic/claude-haiku-4-5', status: 200, latencyMs: 800 },
        ],
      }),
    );
    const f = await h.waitFor((fr) => fr.includes('ci-bot'), 'the second row');
    const rows = tableRows(f);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('ci-bot'); // newest first
    expect(rows[0]).toContain('F2'); // fallback marker with its attempt count
    expect(rows[1]).toMatch(/openai\/gpt-5.*200\s+1\.23s\s+321ms\s+1\.2k\/34\s+S/);
    expect(lines(f)[2]).toMatch(/^TIME\s+KEY\s+MODEL\s+ANSWERED BY\s+ST\s+LAT\s+TTFB\s+TOKENS\s+S\/F/);
    for (const l of lines(f)) expect(l.length).toBeLessThanOrEqual(80);
    // One line less than the terminal, so Ink never clears the screen to redraw.
    expect(lines(f)).toHaveLength(23);
  });

  it('shows the base column when the terminal is wide enough', async () => {
    h = await startTui({ size: { columns: 140, rows: 30 } });
    h.log(makeEntry({ base: 'group:work', modelAsked: 'fast' }));
    const f = await h.waitFor((fr) => fr.includes('g/work'), 'the group base');
    expect(f).toMatch(/TIME\s+KEY\s+BASE\s+MODEL/);
    expect(lines(f)).toHaveLength(29);
  });

  it('filters by text, status class and key; Esc clears', async () => {
    h = await startTui();
    h.log(
      makeEntry({ keyName: 'alice', modelAsked: 'openai/gpt-5', status: 200 }),
      makeEntry({ keyName: 'bob', modelAsked: 'anthropic/claude-sonnet-4-5', status: 429, errorCode: 'rate_limited' }),
      makeEntry({ keyName: 'alice', modelAsked: 'gemini/gemini-2.5-flash', status: 502, errorCode: 'upstream_error' }),
    );
    await h.waitFor((f) => tableRows(f).length === 3, 'three rows');

    await h.press('/');
    await h.waitFor((fr) => fr.includes('filter /'), 'the filter field');
    await h.type('claude');
    let f = await h.waitFor((fr) => tableRows(fr).length === 1, 'the text filter');
    expect(tableRows(f)[0]).toContain('bob');
    expect(f).toContain('filter / claude');
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => fr.includes('filter: /claude'), 'the kept text filter');
    expect(f).toContain('1 of 3 requests');
    await h.press(KEYS.escape);
    await h.waitFor((fr) => tableRows(fr).length === 3, 'filters cleared');

    await h.press('s'); // ok
    f = await h.waitFor((fr) => fr.includes('status ok'), 'status ok');
    expect(tableRows(f)).toHaveLength(1);
    await h.press('s'); // 4xx
    f = await h.waitFor((fr) => fr.includes('status 4xx'), 'status 4xx');
    expect(tableRows(f).map((r) => r.includes('bob'))).toEqual([true]);
    await h.press('s', 's'); // 5xx, error
    f = await h.waitFor((fr) => fr.includes('status error'), 'status error');
    expect(tableRows(f)).toHaveLength(2);
    await h.press('s'); // all
    await h.waitFor((fr) => !fr.includes('filter:') && tableRows(fr).length === 3, 'status all');

    // The key filter cycles through the names it knows (keys list + log), sorted: alice, bob, laptop?
    await h.press('k');
    f = await h.waitFor((fr) => fr.includes('key alice'), 'key alice');
    expect(tableRows(f)).toHaveLength(2);
    await h.press('k');
    f = await h.waitFor((fr) => fr.includes('key bob'), 'key bob');
    expect(tableRows(f)).toHaveLength(1);
    // Typing the filter text that matches nothing says so.
    await h.press('/');
    await h.waitFor((fr) => fr.includes('filter / claude') === false && fr.includes('filter /'), 'the filter field');
    await h.press(KEYS.backspace, KEYS.backspace); // nothing to delete: the filter was cleared
    await h.type('nothing-like-this');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('No request matches the filter'), 'the empty-filter note');
  });

  it('pauses: new requests are held and counted, then shown on resume', async () => {
    h = await startTui();
    h.log(makeEntry({ modelAsked: 'first/model' }));
    await h.waitFor((f) => f.includes('first/model'), 'the first row');
    await h.press(' ');
    await h.waitFor((f) => f.includes('PAUSED'), 'paused');
    h.log(makeEntry({ modelAsked: 'second/model' }), makeEntry({ modelAsked: 'third/model' }));
    let f = await h.waitFor((fr) => fr.includes('+2 new'), 'the held count');
    expect(f).not.toContain('second/model');
    await h.press('p');
    f = await h.waitFor((fr) => fr.includes('third/model') && fr.includes('LIVE'), 'resumed');
    expect(tableRows(f).map((r) => r.match(/\w+\/model/)?.[0])).toEqual(['third/model', 'second/model', 'first/model']);
  });

  it('Enter opens every field of the selected request and each attempt; Esc goes back', async () => {
    h = await startTui();
    h.log(
      makeEntry({
        id: 'req_detail_1',
        keyName: 'ci-bot',
        keyId: 'key_abc',
        base: 'group:work',
        endpoint: 'messages',
        dialect: 'messages',
        modelAsked: 'fast',
        provider: 'anthropic',
        model: 'claude-haiku-4-5',
        status: 200,
        latencyMs: 900,
        ttfbMs: 120,
        streamed: true,
        fallback: true,
        effortAsked: 'high',
        effortSent: 'medium',
        usage: { input: 100, output: 20, cached: 64, reasoning: 7 },
        attempts: [
          { target: 'openai/gpt-5-mini', status: 0, latencyMs: 3000, errorCode: 'upstream_timeout' },
          { target: 'gemini/gemini-2.5-flash', status: 0, latencyMs: 0, skipped: 'no audio input' },
          { target: 'anthropic/claude-haiku-4-5', status: 200, latencyMs: 800 },
          { target: 'anthropic/claude-haiku-4-5', status: 200, latencyMs: 700, continued: true },
        ],
      }),
      makeEntry({ modelAsked: 'newer/model' }),
    );
    await h.waitFor((f) => f.includes('newer/model'), 'rows');
    await h.press(KEYS.down, KEYS.down); // the second row: the older request
    let f = await h.waitFor((fr) => fr.split('\n').some((l) => l.includes('ci-bot')), 'selection');
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => fr.includes('Request req_detail_1'), 'the detail pane');
    for (const text of [
      'ci-bot (key_abc)',
      'group work',
      'messages (inbound dialect messages)',
      'model asked  fast',
      'anthropic / claude-haiku-4-5',
      'in 100 · out 20 · cached 64 · reasoning 7',
      'asked high → sent medium',
      'yes (4 attempts)',
      'Attempts (4)',
      '1. openai/gpt-5-mini  ERR  3.00s  upstream_timeout',
      '2. gemini/gemini-2.5-flash  skipped: no audio input',
      '3. anthropic/claude-haiku-4-5  200  800ms',
      '4. anthropic/claude-haiku-4-5  200  700ms  continued a paused turn',
    ]) {
      expect(f).toContain(text);
    }
    await h.press(KEYS.escape);
    f = await h.waitFor((fr) => fr.includes('LIVE'), 'back to the log');
    expect(f).not.toContain('Attempts (4)');
  });

  it('a skipped attempt’s reason wraps in the detail view, at 80 and at 40 columns, and End scrolls to its last word', async () => {
    const reason = 'failed moments ago (upstream_timeout): tried after the other targets for 27 s more, unless every other target fails first';
    for (const columns of [80, 40]) {
      h = await startTui({ size: { columns, rows: 12 } });
      h.log(makeEntry({ id: `req_wrap_${columns}`, attempts: [{ target: 'anthropic/claude-haiku-4-5', status: 200, latencyMs: 800 }, { target: 'openai/gpt-5-mini', status: 0, latencyMs: 0, errorCode: 'cooling_down', skipped: reason }] }));
      await h.waitFor((f) => f.includes('LIVE 1'), 'the row');
      await h.press(KEYS.enter);
      await h.waitFor((f) => f.includes(`Request req_wrap_${columns}`), 'the detail pane');
      await h.press(KEYS.end);
      // the pane's last line, over the hints, is the reason's last: the scroll counts its wrapped lines
      const paneEnd = (fr: string) => lines(fr)[lines(fr).findIndex((l) => l.startsWith('Esc')) - 1] ?? '';
      const f = await h.waitFor((fr) => paneEnd(fr).trimEnd().endsWith('first'), `the reason's end at ${columns}`);
      const shown = lines(f);
      for (const l of shown) expect(textWidth(l), `${columns}: ${l}`).toBeLessThanOrEqual(columns);
      const at = shown.findIndex((l) => l.startsWith('  2. openai/gpt-5-mini  skipped:'));
      expect(at, f).toBeGreaterThanOrEqual(0);
      const end = shown.findIndex((l) => l.startsWith('Esc'));
      expect(shown.slice(at, end).map((l) => l.trim()).join(' '), f).toBe(`2. openai/gpt-5-mini  skipped: ${reason}`);
      await h.close();
      h = undefined;
    }
  });

  it('a selected row keeps its place while new requests arrive; ↑ at the top follows again', async () => {
    h = await startTui();
    for (let i = 0; i < 30; i++) h.log(makeEntry({ modelAsked: `a/m${i}` }));
    await h.waitFor((f) => f.includes('a/m29'), 'rows');
    // 18 rows fit; select the 20th newest (a/m10): the view scrolls so it is the last row.
    await h.press(...Array<string>(20).fill(KEYS.down));
    let rows = await h.waitFor((f) => tableRows(f).at(-1)?.includes('a/m10') === true, 'scrolled to the selection').then(tableRows);
    expect(rows[0]).toContain('a/m27');
    h.log(makeEntry({ modelAsked: 'a/new1' }), makeEntry({ modelAsked: 'a/new2' }));
    await h.waitFor((f) => f.includes('32 requests'), 'the new rows to arrive');
    // Nothing moved on screen: the new rows are above, out of view.
    rows = tableRows(h.frame());
    expect(rows[0]).toContain('a/m27');
    expect(rows.at(-1)).toContain('a/m10');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('a/m10') && f.includes('Attempts ('), 'the detail of the selected row');
    await h.press(KEYS.escape, KEYS.escape); // back, then back to following the newest
    rows = tableRows(await h.waitFor((f) => tableRows(f)[0]?.includes('a/new2') === true, 'follow mode'));
    expect(rows[1]).toContain('a/new1');
  });

  it('footer: requests/minute, error rate and p50/p95 of the last 5 minutes, from the daemon', async () => {
    h = await startTui();
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    h.log(
      makeEntry({ status: 200, latencyMs: 100 }),
      makeEntry({ status: 200, latencyMs: 200 }),
      makeEntry({ status: 500, latencyMs: 300 }),
      makeEntry({ status: 200, latencyMs: 4000 }),
      makeEntry({ status: 500, latencyMs: 50, time: old }), // outside the window
    );
    const f = await h.waitFor((fr) => fr.includes('0.8 req/min'), 'the footer stats', 8_000);
    expect(f).toContain('last 5 min: 0.8 req/min · errors 25% · p50 200ms · p95 4.00s');
  });

  it('batches renders: 50 requests/second cost about 10 renders a second, and the list stays bounded', async () => {
    h = await startTui({ feed: { flushMs: 100, capacity: 300 }, statsPollMs: 60_000 });
    await sleep(300);
    const before = h.ui.frames.length;
    const started = Date.now();
    for (let i = 0; i < 100; i++) {
      h.log(makeEntry({ modelAsked: `burst/m${i}` }));
      await sleep(20); // 50 per second for 2 s
    }
    await h.waitFor((f) => f.includes('burst/m99'), 'the last burst row');
    const seconds = (Date.now() - started) / 1000;
    const renders = h.ui.frames.length - before;
    expect(renders).toBeGreaterThan(3);
    expect(renders / seconds).toBeLessThanOrEqual(14);
    // More than the capacity: only the newest `capacity` are kept.
    for (let i = 0; i < 400; i++) h.log(makeEntry({ modelAsked: `flood/m${i}` }));
    const f = await h.waitFor((fr) => fr.includes('flood/m399'), 'the flood');
    expect(f).toContain('LIVE 300 requests');
  });
});

describe('the Log footer when the 5-minute summary fails', () => {
  const why = 'internal_error: the request log directory could not be read';

  it('keeps the last figures, marked stale with their time, and the table its rows', async () => {
    const failing = summariesThatFail(why);
    failing.now = false;
    h = await startTui({ size: { columns: 40, rows: 14 } });
    for (let i = 0; i < 12; i++) h.log(makeEntry({ modelAsked: `a/m${i}`, status: 200, latencyMs: 100 }));
    const good = await h.waitFor((f) => f.includes('2.4/min') && f.includes('12 requests'), 'the figures');
    failing.now = true;
    const stale = await h.waitFor((f) => f.includes('stale'), 'the failed poll shown');
    const footer = lines(stale).find((l) => l.startsWith('stale'));
    expect(footer, stale).toMatch(/^stale \d\d:\d\d:\d\d · 5m: 2\.4\/min · err 0%$/);
    expect(tableRows(stale)).toEqual(tableRows(good));
    failing.now = false;
    const back = await h.waitFor((f) => !f.includes('stale') && f.includes('2.4/min'), 'the figures current again');
    expect(tableRows(back)).toEqual(tableRows(good));
  });

  it('before any figures says why on the summary’s one line, cut with …, so the table loses no row', async () => {
    const failing = summariesThatFail(why);
    h = await startTui({ size: { columns: 40, rows: 14 } });
    for (let i = 0; i < 12; i++) h.log(makeEntry({ modelAsked: `a/m${i}`, status: 200, latencyMs: 100 }));
    const failed = await h.waitFor((f) => f.includes('stats unavailable') && f.includes('a/m11'), 'why there are no figures');
    expect(lines(failed).find((l) => l.startsWith('stats unavailable')), failed).toBe('stats unavailable: internal_error: the …');
    failing.now = false;
    const good = await h.waitFor((f) => f.includes('2.4/min'), 'the figures');
    expect(tableRows(failed), failed).toEqual(tableRows(good));
  });
});
