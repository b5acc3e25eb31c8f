import { describe, expect, it } from 'vitest';
import { formatCount, formatMs, formatStats, formatTime, LogTable } from '../../src/cli/log-format.js';
import { summarize } from '../../src/log/stats.js';
import { table } from '../../src/cli/output.js';
import { clip } from '../../src/tui/format.js';
import { detailLines } from '../../src/tui/log/detail-lines.js';
import { printable } from '../../src/util/printable.js';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';

describe('numbers', () => {
  it('latency: ms, seconds, minutes', () => {
    expect([undefined, 0, 12.6, 999, 1000, 1234, 12_345, 61_000, 600_000].map(formatMs)).toEqual(['-', '0ms', '13ms', '999ms', '1.00s', '1.23s', '12.3s', '1m01s', '10m00s']);
  });
  it('counts: plain, k, M', () => {
    expect([undefined, 0, 999, 1000, 1234, 12_345, 1_234_567, 12_345_678].map(formatCount)).toEqual(['-', '0', '999', '1.0k', '1.2k', '12k', '1.2M', '12M']);
  });
  it('time: local clock today, with the date otherwise', () => {
    const now = new Date(2026, 0, 10, 15, 0, 0);
    expect(formatTime(new Date(2026, 0, 10, 9, 5, 7).toISOString(), now)).toBe('09:05:07');
    expect(formatTime(new Date(2026, 0, 9, 23, 59, 59).toISOString(), now)).toBe('2026-01-09 23:59:59');
    expect(formatTime('garbage', now)).toBe('garbage');
  });
});

describe('LogTable', () => {
  const now = new Date();
  const entries = [
    makeEntry({ time: now.toISOString(), modelAsked: 'openai/gpt-5', usage: { input: 1200, output: 34 }, ttfbMs: undefined }),
    makeEntry({
      time: now.toISOString(),
      base: 'group:coding',
      modelAsked: 'claude-sonnet-4-5',
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.5',
      streamed: true,
      ttfbMs: 321,
      fallback: true,
      attempts: [
        { target: 'anthropic/claude-sonnet-4-5', status: 529, latencyMs: 10 },
        { target: 'openrouter/anthropic/claude-sonnet-4.5', status: 200, latencyMs: 900 },
      ],
    }),
    makeEntry({ time: now.toISOString(), status: 0, provider: undefined, model: undefined, errorCode: 'client_closed', usage: undefined }),
  ];

  it("a request refused before its route was known shows the path's end it asked for, not `unknown`", () => {
    const refused = [
      makeEntry({ time: now.toISOString(), endpoint: 'unknown', path: '/protocol-a/v1/embeddings?x=1', status: 404, errorCode: 'not_found' }),
      makeEntry({ time: now.toISOString(), endpoint: 'unknown', path: '/v1/chat', status: 404, errorCode: 'not_found' }),
      makeEntry({ time: now.toISOString(), endpoint: 'unknown', status: 401, errorCode: 'invalid_api_key' }),
    ];
    const t = new LogTable(refused, { now });
    const api = t.header().indexOf('API');
    const cells = refused.map((e) => t.row(e, now).slice(api, api + 24).trim());
    expect(cells).toEqual(['…rotocol-a/v1/embeddings', '/v1/chat', 'unknown']);
  });

  it('aligns every column and shows markers, answered-by, tokens and errors', () => {
    const t = new LogTable(entries, { now });
    const lines = [t.header(), ...entries.map((e) => t.row(e, now))];
    const starts = ['KEY', 'BASE', 'MODEL', 'STATUS', 'FLAGS'].map((c) => lines[0]!.indexOf(c));
    expect(lines[1]!.slice(starts[1], starts[1]! + 6)).toBe('direct');
    expect(lines[2]!.slice(starts[1], starts[1]! + 8)).toBe('g/coding');
    expect(lines[2]).toContain('openrouter/anthropic/claude-sonnet-4.5');
    expect(lines[2]).toContain('321ms');
    expect(lines[2]!.slice(starts[4])).toMatch(/^S F2/);
    expect(lines[1]).toContain('1.2k/34');
    expect(lines[3]).toContain('client_closed');
    expect(lines[3]!.slice(starts[3], starts[3]! + 6).trim()).toBe('-');
    for (const l of lines.slice(1)) expect(l.slice(starts[0], starts[0]! + 6)).toBe('laptop');
  });

  it('cuts overlong cells with … so following rows never break the alignment', () => {
    const t = new LogTable([], { minWidths: true, now });
    const long = makeEntry({ time: now.toISOString(), modelAsked: `x/${'m'.repeat(100)}` });
    const header = t.header();
    const row = t.row(long, now);
    expect(row).toContain('…');
    expect(row.indexOf('200')).toBeGreaterThan(0);
    // the STATUS cell ends where the header's STATUS column ends
    expect(row.indexOf('200') + 3).toBe(header.indexOf('STATUS') + 'STATUS'.length);
  });

  it('colours the status only when asked', () => {
    const t = new LogTable(entries, { colour: true, now });
    expect(t.row(entries[0]!, now)).toContain('\x1b[32m');
    expect(t.row(entries[2]!, now)).toContain('\x1b[31m');
    expect(new LogTable(entries, { now }).row(entries[0]!, now)).not.toContain('\x1b[');
  });
});

describe('formatStats', () => {
  it('one row per group plus TOTAL, numbers right-aligned', () => {
    const report = summarize(
      [makeEntry({ latencyMs: 100 }), makeEntry({ latencyMs: 300, status: 500 }), makeEntry({ provider: 'anthropic', latencyMs: 2500 })],
      'provider',
      { since: Date.parse('2026-01-01T00:00:00Z'), until: Date.parse('2026-01-02T00:00:00Z') },
    );
    const lines = formatStats(report).split('\n');
    expect(lines[0]).toMatch(/^Requests since .* by provider$/);
    expect(lines[2]).toMatch(/^PROVIDER\s+REQUESTS\s+ERRORS\s+ERR%\s+CANCELLED\s+FALLBACKS\s+TOKENS IN\s+TOKENS OUT\s+CACHED\s+P50\s+P95\s+P50 TTFB$/);
    expect(lines[3]).toMatch(/^openai\s+2\s+1\s+50%\s+0\s+0\s+20\s+10\s+0\s+100ms\s+300ms\s+-$/);
    expect(lines[5]).toMatch(/^TOTAL\s+3\s+1\s+33%/);
    expect(lines[2]!.length).toBe(lines[3]!.length);
  });
});

describe('text from clients and upstreams on a terminal', () => {
  // OSC 52 (write the clipboard), a window title, a colour, a cleared line, a carriage return
  const hostile = 'ca/x\x1b]52;c;Y3VybCB4fHNo\x07\x1b]0;PWNED\x07\x1b[31m\x1b[2K\rfake\u009b1m';
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const escapes = /[\u0000-\u001f\u007f-\u009f]/;

  it('is shown, never obeyed: every control character becomes U+FFFD', () => {
    expect(printable('plain model-id/é ✓')).toBe('plain model-id/é ✓');
    expect(printable(hostile)).not.toMatch(escapes);
    expect(printable('a\x1bb')).toBe('a\ufffdb');
  });

  it('in svc-proxy logs, models and every CLI table, and in the TUI\'s tables and request detail', () => {
    const e = makeEntry({ modelAsked: hostile, model: hostile, errorCode: hostile });
    const t = new LogTable([e], { now: new Date() });
    expect(t.row(e)).not.toMatch(escapes);
    for (const line of table(['MODEL'], [[hostile]]).split('\n')) expect(line).not.toMatch(escapes);
    expect(clip(hostile, 200)).not.toMatch(escapes);
    for (const line of detailLines(e)) expect(line.text).not.toMatch(escapes);
  });
});

describe('detail pane', () => {
  it("a model list's attempts are headed as the providers it was answered without", () => {
    const failed = { target: 'gemini', status: 500, latencyMs: 4, errorCode: 'upstream_error' };
    const texts = (over: Parameters<typeof makeEntry>[0]) => detailLines(makeEntry(over)).map((l) => l.text);
    expect(texts({ endpoint: 'models', attempts: [failed] })).toEqual(expect.arrayContaining(['Providers not listed (1)', '  1. gemini  500  4ms  upstream_error']));
    expect(texts({ endpoint: 'models', attempts: [] })).toEqual(expect.arrayContaining(['Providers not listed (0)', '  none']));
    expect(texts({ endpoint: 'chat', attempts: [] })).toEqual(expect.arrayContaining(['Attempts (0)', '  none (refused before any upstream was tried)']));
  });
});

describe('terminal cells, not string length', () => {
  it('a CJK or emoji model id keeps the log and stats columns aligned, and table() pads by cells', () => {
    const wide = makeEntry({ modelAsked: 'local/通义千问-🚀', provider: 'local', model: '通义千问-🚀' });
    const t = new LogTable([wide, makeEntry()], { now: new Date(wide.time) });
    const header = t.header();
    const row = t.row(wide, new Date(wide.time));
    expect(textWidth(row.slice(0, row.indexOf('200') + 3))).toBe(textWidth(header.slice(0, header.indexOf('STATUS') + 'STATUS'.length)));

    const report = summarize([wide, makeEntry()], 'model', { until: Date.parse('2026-01-02T00:00:00Z') });
    const lines = formatStats(report).split('\n').slice(2);
    expect(new Set(lines.map((l) => textWidth(l))).size).toBe(1);

    const out = table(['NAME', 'X'], [['キー', '1'], ['ab', '2']]).split('\n');
    expect(out.map((l) => textWidth(l.slice(0, -1)))).toEqual([6, 6, 6]);
  });
});
