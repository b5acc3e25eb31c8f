/** Cooldowns of targets that failed moments ago: the rule (cooldowns.ts), then a group that uses it. */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cooldownFor, Cooldowns, MAX_COOLDOWN_MS } from '../../src/routing/cooldowns.js';
import type { UpstreamFailure } from '../../src/routing/upstream-errors.js';
import { post, startHarness, type Harness } from './harness.js';

const failure = (upstreamStatus: number, extra: Partial<UpstreamFailure> = {}): UpstreamFailure => ({
  status: upstreamStatus || 502,
  code: 'upstream_error',
  message: 'x',
  upstreamStatus,
  ...extra,
});

describe('cooldownFor', () => {
  it('a Retry-After (seconds, ms or a date) is followed, up to five minutes', () => {
    expect(cooldownFor(failure(429, { retryAfter: '9' }))).toBe(9_000);
    expect(cooldownFor(failure(429, { retryAfter: '9', retryAfterMs: '1500' }))).toBe(1_500);
    expect(cooldownFor(failure(503, { retryAfter: '86400' }))).toBe(MAX_COOLDOWN_MS);
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    expect(cooldownFor(failure(503, { retryAfter: inTwoMinutes }))).toBeGreaterThan(100_000);
  });

  it('a limit that resets beyond that: until it resets', () => {
    expect(cooldownFor(failure(429, { retryAfter: '25920', resetsAt: Date.now() + 25_920_000 }))).toBeGreaterThan(25_919_000);
    expect(cooldownFor(failure(429, { retryAfter: '25920', resetsAt: Date.now() - 1 }))).toBe(0);
    // a used-up quota that says when it is back (Gemini's per-day one, at midnight Pacific): until then, not a minute
    expect(cooldownFor(failure(429, { status: 402, code: 'upstream_billing', resetsAt: Date.now() + 25_920_000 }))).toBeGreaterThan(25_919_000);
  });

  it('otherwise by what the failure says of the target; nothing for a request too large for it', () => {
    expect(cooldownFor(failure(0))).toBe(30_000);
    expect(cooldownFor(failure(500))).toBe(15_000);
    expect(cooldownFor(failure(529))).toBe(15_000);
    expect(cooldownFor(failure(429))).toBe(15_000);
    expect(cooldownFor(failure(401))).toBe(60_000);
    // a gateway redirecting to its login page
    expect(cooldownFor(failure(302, { code: 'upstream_invalid_response' }))).toBe(60_000);
    expect(cooldownFor(failure(402, { code: 'upstream_billing' }))).toBe(60_000);
    // a used-up quota that came as a 429 is no rate limit
    expect(cooldownFor(failure(429, { status: 402, code: 'upstream_billing' }))).toBe(60_000);
    expect(cooldownFor(failure(400, { contextLength: true }))).toBe(0);
    expect(cooldownFor(failure(413))).toBe(0);
    expect(cooldownFor(failure(400))).toBe(0);
  });
});

describe('Cooldowns', () => {
  it('cools a target until its time is up, or until it answers', () => {
    let now = 1_000_000;
    const c = new Cooldowns(() => now);
    expect(c.coolingDown('a/m')).toBeUndefined();
    c.failed('a/m', failure(429, { retryAfter: '10', code: 'upstream_rate_limited' }));
    expect(c.coolingDown('a/m')).toEqual({ code: 'upstream_rate_limited', secondsLeft: 10 });
    now += 9_500;
    expect(c.coolingDown('a/m')?.secondsLeft).toBe(1);
    now += 600;
    expect(c.coolingDown('a/m')).toBeUndefined();
    c.failed('a/m', failure(500));
    c.succeeded('a/m');
    expect(c.coolingDown('a/m')).toBeUndefined();
    c.failed('a/m', failure(400));
    expect(c.coolingDown('a/m')).toBeUndefined();
  });
});

describe('a group with cooldowns (the default)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      settings: { groupCooldowns: true, headersTimeoutMs: 400 },
      groups: { team: [{ name: 'claude', targets: ['anthropic/claude-sonnet-4-5', 'ca/qwen3-coder'] }] },
    });
  });
  afterAll(async () => h.close());

  const ask = () => post(`${h.groupB('team')}/v1/messages`, { model: 'claude', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
  const generations = () => h.mocks.anthropic.requests.filter((r) => r.path === '/v1/messages').length;

  it('a hung first target costs one request its timeout, not every request; it is tried last meanwhile, and an answer ends its cooldown', async () => {
    h.mocks.anthropic.next({ kind: 'hang' });
    const started = performance.now();
    expect((await ask()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThan(350);
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status])).toEqual([
      ['anthropic/claude-sonnet-4-5', 0],
      ['ca/qwen3-coder', 200],
    ]);

    const before = generations();
    expect((await ask()).status).toBe(200);
    // the hung target was not asked (so not waited for) again
    expect(generations()).toBe(before);
    expect(h.logs.at(-1)!.attempts).toEqual([
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', errorCode: 'cooling_down', skipped: expect.stringMatching(/^failed moments ago \(upstream_timeout\): tried after the other targets for \d+ s more$/) }),
      expect.objectContaining({ target: 'ca/qwen3-coder', status: 200 }),
    ]);

    // the other target fails too: the cooling one is still tried, and its answer ends its cooldown
    h.mocks.ca.next(h.mocks.ca.error(500, 'down'));
    expect((await ask()).status).toBe(200);
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status])).toEqual([
      ['anthropic/claude-sonnet-4-5', 0],
      ['ca/qwen3-coder', 500],
      ['anthropic/claude-sonnet-4-5', 200],
    ]);
    // now the other one cools (its 500), and the first answers first
    expect((await ask()).status).toBe(200);
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status, a.errorCode])).toEqual([
      ['ca/qwen3-coder', 0, 'cooling_down'],
      ['anthropic/claude-sonnet-4-5', 200, undefined],
    ]);
  });
});

describe('a group whose first target’s quota is used up (a 429 insufficient_quota)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { groupCooldowns: true }, groups: { team: [{ name: 'coder', targets: ['ca/qwen3-coder', 'anthropic/claude-sonnet-4-5'] }] } });
  });
  afterAll(async () => h.close());

  it('cools it a minute, as no credit does, not a rate limit’s 15 s', async () => {
    const quota = { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } };
    h.mocks.ca.next({ kind: 'raw', status: 429, contentType: 'application/json', body: JSON.stringify(quota) });
    const ask = () => post(`${h.groupB('team')}/v1/messages`, { model: 'coder', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    expect((await ask()).status).toBe(200);
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status, a.errorCode])).toEqual([
      ['ca/qwen3-coder', 429, 'upstream_billing'],
      ['anthropic/claude-sonnet-4-5', 200, undefined],
    ]);
    expect((await ask()).status).toBe(200);
    const [cooling] = h.logs.at(-1)!.attempts;
    expect(cooling).toMatchObject({ target: 'ca/qwen3-coder', errorCode: 'cooling_down' });
    expect(Number(/for (\d+) s more/.exec(cooling!.skipped ?? '')?.[1])).toBeGreaterThan(55);
  });
});

describe('token counts on a group read the cooldowns too', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ settings: { groupCooldowns: true }, groups: { team: [{ name: 'claude', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4'] }] } });
  });
  afterAll(async () => h.close());

  it('a target cooling after a failed generation is counted on last (Claude Code counts between its turns)', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(529, 'Overloaded'));
    const client = new Anthropic({ apiKey: 'sk-svc-proxy-test', baseURL: h.groupB('team'), maxRetries: 0 });
    const answer = await client.messages.create({ model: 'claude', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.model).toBe('openai/gpt-5.4');

    const counted = await client.messages.countTokens({ model: 'claude', messages: [{ role: 'user', content: 'hi' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(h.mocks.anthropic.requests.filter((r) => r.path === '/v1/messages/count_tokens')).toHaveLength(0);
    expect(h.logs.at(-1)!.attempts).toEqual([
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', errorCode: 'cooling_down' }),
      expect.objectContaining({ target: 'openai/gpt-5.4', status: 200 }),
    ]);
  });
});
