import { describe, expect, it } from 'vitest';
import { percentile, statsKey, summarize } from '../../src/log/stats.js';
import { makeEntry } from './make-entry.js';

describe('percentile (nearest rank)', () => {
  it('matches the textbook definition', () => {
    const xs = [15, 20, 35, 40, 50];
    expect(percentile(xs, 5)).toBe(15);
    expect(percentile(xs, 30)).toBe(20);
    expect(percentile(xs, 40)).toBe(20);
    expect(percentile(xs, 50)).toBe(35);
    expect(percentile(xs, 100)).toBe(50);
    expect(percentile([], 50)).toBe(0);
    expect(percentile([7], 95)).toBe(7);
  });

  it('p50/p95 of 1..100 are 50 and 95', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 95)).toBe(95);
  });
});

describe('summarize', () => {
  const entries = [
    makeEntry({ provider: 'openai', model: 'gpt-5', latencyMs: 100, usage: { input: 10, output: 1, cached: 4 } }),
    makeEntry({ provider: 'openai', model: 'gpt-5-mini', latencyMs: 300, status: 429, usage: undefined }),
    makeEntry({ provider: 'anthropic', model: 'claude-sonnet-4-5', latencyMs: 200, streamed: true, ttfbMs: 40, keyName: 'ci', usage: { input: 7, output: 3, reasoning: 2 } }),
    // nobody answered: counts for the last target tried
    makeEntry({
      provider: undefined,
      model: undefined,
      status: 502,
      latencyMs: 900,
      fallback: true,
      attempts: [
        { target: 'openai/gpt-5', status: 500, latencyMs: 400 },
        { target: 'gemini/gemini-2.5-pro', status: 0, latencyMs: 500, errorCode: 'upstream_timeout' },
      ],
      usage: undefined,
    }),
  ];
  const window = { until: Date.parse('2025-01-01T00:00:00Z') };

  it('a client that hung up before its answer began (499) is counted as cancelled, not as an error', () => {
    const gone = makeEntry({ provider: 'openai', model: 'gpt-5', status: 499, errorCode: 'client_disconnected', usage: undefined });
    const r = summarize([...entries, gone, gone], 'provider', window);
    expect(r.rows.find((x) => x.name === 'openai')).toMatchObject({ requests: 4, errors: 1, cancelled: 2 });
    expect(r.total).toMatchObject({ requests: 6, errors: 2, cancelled: 2 });
  });

  it('a CORS preflight is not a request: in no row and not in the total, answered or refused', () => {
    const preflight = (status: number) => makeEntry({ preflight: true, origin: 'https://app.example', provider: undefined, model: undefined, modelAsked: undefined, keyId: undefined, keyName: undefined, attempts: [], status, usage: undefined, latencyMs: 0 });
    for (const by of ['provider', 'model', 'key'] as const) {
      const r = summarize([...entries, preflight(204), preflight(403), preflight(401)], by, window);
      expect(r.total).toMatchObject({ requests: 4, errors: 2 });
      expect(r.rows.map((x) => x.name)).not.toContain('(none)');
    }
  });

  it('by provider', () => {
    const r = summarize(entries, 'provider', window);
    expect(r.rows.map((x) => [x.name, x.requests, x.errors])).toEqual([
      ['openai', 2, 1],
      ['anthropic', 1, 0],
      ['gemini', 1, 1],
    ]);
    expect(r.total).toMatchObject({ requests: 4, errors: 2, fallbacks: 1, streamed: 1, inputTokens: 17, outputTokens: 4, cachedTokens: 4, reasoningTokens: 2 });
    expect(r.total.p50LatencyMs).toBe(200);
    expect(r.total.p95LatencyMs).toBe(900);
    expect(r.rows.find((x) => x.name === 'anthropic')!.p50TtfbMs).toBe(40);
    expect(r.rows.find((x) => x.name === 'openai')!.p50TtfbMs).toBeNull();
    expect(r.until).toBe('2025-01-01T00:00:00.000Z');
    expect(r.since).toBeUndefined();
  });

  it('by model and by key', () => {
    expect(summarize(entries, 'model', window).rows.map((x) => x.name).sort()).toEqual(
      ['anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-pro', 'openai/gpt-5', 'openai/gpt-5-mini'].sort(),
    );
    expect(summarize(entries, 'key', window).rows.map((x) => [x.name, x.requests])).toEqual([
      ['laptop', 3],
      ['ci', 1],
    ]);
    expect(statsKey(makeEntry({ keyName: undefined, keyId: undefined }), 'key')).toBe('(none)');
    expect(statsKey(makeEntry({ provider: undefined, model: undefined, attempts: [], modelAsked: 'nope' }), 'model')).toBe('nope');
  });

  it('a model list answered without a failed provider is not a request to that provider', () => {
    const list = makeEntry({ endpoint: 'models', provider: undefined, model: undefined, modelAsked: undefined, usage: undefined, attempts: [{ target: 'gemini', status: 500, latencyMs: 4, errorCode: 'upstream_error' }] });
    expect(statsKey(list, 'provider')).toBe('(none)');
    expect(statsKey(list, 'model')).toBe('(none)');
    // a model of that provider looked up, and refused for it, is
    const lookup = makeEntry({ endpoint: 'model', provider: undefined, model: undefined, modelAsked: 'gemini/x', status: 500, attempts: [{ target: 'gemini', status: 500, latencyMs: 4, errorCode: 'upstream_error' }] });
    expect(statsKey(lookup, 'provider')).toBe('gemini');
  });
});
