/**
 * A quota used up is a billing failure, not a rate limit, though OpenAI (insufficient_quota) and
 * Google (RESOURCE_EXHAUSTED naming a per-day quota) send it as a 429: the client gets 402 —
 * Anthropic's billing_error, OpenAI's insufficient_quota — with `x-should-retry: false` and no
 * wait, so the official SDKs and Codex stop instead of retrying for hours; OpenRouter's 402 says
 * the same. Google's per-minute RESOURCE_EXHAUSTED stays a rate limit. A group moves on to its
 * next target. Before the stream and inside it; real SDK clients.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { geminiError } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness({ groups: { team: [{ name: 'coder', targets: ['openai/gpt-5.4', 'ca/qwen3-coder'] }] } });
const anthropic = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
const openai = (baseURL = t.h.a) => new OpenAI({ baseURL, apiKey: 'k', maxRetries: 0 });

type ApiError = InstanceType<typeof OpenAI.APIError>;

/** What a call was refused with; fails the test when it was answered. */
const refusal = (call: Promise<unknown>): Promise<ApiError> =>
  call.then(
    () => Promise.reject(new Error('the call was answered')),
    (e: unknown) => e as ApiError,
  );

const advice = (e: ApiError) => ({ status: e.status, shouldRetry: e.headers?.get('x-should-retry'), retryAfter: e.headers?.get('retry-after') ?? null });
const NO_RETRY = { status: 402, shouldRetry: 'false', retryAfter: null };

const OPENAI_QUOTA = 'You exceeded your current quota, please check your plan and billing details.';
/** Google's QuotaFailure detail for one quota (its per-day and per-minute ids, as the Gemini API names them). */
const geminiQuota = (quotaId: string) => [
  { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId, quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' } }] },
  { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '29s' },
];
const GEMINI_QUOTA = 'You exceeded your current quota, please check your plan and billing details.';

describe('a used-up quota before the stream', () => {
  it('OpenAI insufficient_quota (429) → Responses client (passthrough): 402 insufficient_quota, upstream_billing, not to be retried', async () => {
    t.h.mocks.openai.next(t.h.mocks.openai.error(429, OPENAI_QUOTA, { code: 'insufficient_quota', type: 'insufficient_quota', retryAfter: 20 }));
    const e = await refusal(openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect(advice(e)).toEqual(NO_RETRY);
    expect({ type: e.type, code: e.code }).toEqual({ type: 'insufficient_quota', code: 'upstream_billing' });
    expect(e.message).toContain(`openai: ${OPENAI_QUOTA}`);
  });

  it('OpenAI insufficient_quota → Messages client: Anthropic’s billing_error, 402', async () => {
    t.h.mocks.openai.next(t.h.mocks.openai.error(429, OPENAI_QUOTA, { code: 'insufficient_quota', type: 'insufficient_quota' }));
    const e = await refusal(anthropic().messages.create({ model: 'openai/gpt-5.4', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }));
    expect(e.status).toBe(402);
    expect(e.headers?.get('x-should-retry')).toBe('false');
    expect((e.error as { error: { type: string; code: string } }).error).toMatchObject({ type: 'billing_error', code: 'upstream_billing' });
  });

  it('OpenRouter 402 insufficient credits → Chat client: 402, not to be retried', async () => {
    t.h.mocks.openrouter.next(t.h.mocks.openrouter.error(402, 'Insufficient credits. Add more using https://openrouter.ai/settings/credits'));
    const e = await refusal(openai().chat.completions.create({ model: 'openrouter/openai/gpt-5', messages: [{ role: 'user', content: 'hi' }] }));
    expect(advice(e)).toEqual(NO_RETRY);
    expect({ type: e.type, code: e.code }).toEqual({ type: 'insufficient_quota', code: 'upstream_billing' });
  });

  it('Gemini RESOURCE_EXHAUSTED for a per-day quota: 402; for a per-minute one: the 429 rate limit it is', async () => {
    t.h.mocks.gemini.next(geminiError(429, GEMINI_QUOTA, { details: geminiQuota('GenerateRequestsPerDayPerProjectPerModel-FreeTier') }));
    const day = await refusal(openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
    // not to be retried; when it is back (midnight Pacific) is gemini-retry-delay.test.ts's
    expect({ status: day.status, shouldRetry: day.headers?.get('x-should-retry') }).toEqual({ status: 402, shouldRetry: 'false' });
    expect(day.code).toBe('upstream_billing');

    t.h.mocks.gemini.next(geminiError(429, GEMINI_QUOTA, { retryAfter: 29, details: geminiQuota('GenerateRequestsPerMinutePerProjectPerModel-FreeTier') }));
    const minute = await refusal(openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
    expect({ status: minute.status, code: minute.code, retryAfter: minute.headers?.get('retry-after'), shouldRetry: minute.headers?.get('x-should-retry') ?? null }).toEqual({
      status: 429,
      code: 'upstream_rate_limited',
      retryAfter: '29',
      shouldRetry: null,
    });
  });

  it('Gemini listing per-minute and per-day quotas at once (a model whose free quota is 0, say): every one listed was exceeded, so the day’s is used up: 402', async () => {
    // google.rpc.QuotaFailure lists the violations, each a quota the request went past; the
    // message names each ("Quota exceeded for metric: …, limit: 0")
    const details = [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: ['GenerateContentInputTokensPerModelPerMinute-FreeTier', 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', 'GenerateRequestsPerDayPerProjectPerModel-FreeTier'].map((quotaId) => ({ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId })),
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '40s' },
    ];
    // a fixed clock: on the real one, in the last 5 minutes before midnight Pacific (07:55–08:00
    // UTC, 06:55–07:00 in summer) the day's quota is back within a wait to sit out, and the message
    // names no reset time
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-10T12:00:00Z')); // 05:00 PDT: midnight Pacific is 19 h away
      t.h.mocks.gemini.next(geminiError(429, GEMINI_QUOTA, { retryAfter: 40, details }));
      const e = await refusal(openai().chat.completions.create({ model: 'gemini/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] }));
      expect({ status: e.status, shouldRetry: e.headers?.get('x-should-retry') }).toEqual({ status: 402, shouldRetry: 'false' });
      expect(e.message).toMatch(/; the limit resets in 19 h \(at 2026-03-11 07:00 UTC\)\.$/);
      expect(e.code).toBe('upstream_billing');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an upstream’s own x-should-retry: true does not override ours: a used-up quota is not retried', async () => {
    // the official SDKs follow x-should-retry before the status; a retry seconds later meets the same used-up quota
    t.h.mocks.openai.next(t.h.mocks.openai.error(429, OPENAI_QUOTA, { code: 'insufficient_quota', type: 'insufficient_quota', headers: { 'x-should-retry': 'true' } }));
    const e = await refusal(openai().responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect(advice(e)).toEqual(NO_RETRY);
    expect(t.h.mocks.openai.requests.filter((r) => r.path === '/v1/responses')).toHaveLength(1);
    // with the SDK's own retries on, it still asks once
    const retrying = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 2 });
    t.h.mocks.openai.next(t.h.mocks.openai.error(429, OPENAI_QUOTA, { code: 'insufficient_quota', type: 'insufficient_quota', headers: { 'x-should-retry': 'true' } }));
    await refusal(retrying.responses.create({ model: 'openai/gpt-5.4', input: 'hi' }));
    expect(t.h.mocks.openai.requests.filter((r) => r.path === '/v1/responses')).toHaveLength(2);
  });

  it('a group moves on to its next target', async () => {
    t.h.mocks.openai.next(t.h.mocks.openai.error(429, OPENAI_QUOTA, { code: 'insufficient_quota', type: 'insufficient_quota' }));
    t.h.mocks.ca.next({ kind: 'turn', turn: { text: 'from the next target' } });
    const r = await openai(t.h.groupA('team')).chat.completions.create({ model: 'coder', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.choices[0]?.message.content).toBe('from the next target');
  });
});

describe('a used-up quota inside a stream', () => {
  const chunk = (content: string) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
  const errorChunk = (error: Record<string, unknown>) => `data: ${JSON.stringify({ error })}\n\n`;
  const openaiQuota = { message: OPENAI_QUOTA, type: 'insufficient_quota', param: null, code: 'insufficient_quota' };
  const raw = (body: string) => ({ kind: 'raw' as const, contentType: 'text/event-stream', body });

  it('OpenAI’s insufficient_quota mid-stream → Responses client: response.failed insufficient_quota (Codex stops), the error event upstream_billing', async () => {
    t.h.mocks.ca.next(raw(chunk('partial answer') + errorChunk(openaiQuota)));
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const ev of await openai().responses.create({ model: 'ca/qwen3-coder', stream: true, input: 'hi' })) events.push(ev);
    const error = events.find((e): e is OpenAI.Responses.ResponseErrorEvent => e.type === 'error');
    const last = events.at(-1) as OpenAI.Responses.ResponseFailedEvent;
    expect([error?.code, last.type, last.response.error?.code]).toEqual(['upstream_billing', 'response.failed', 'insufficient_quota']);
  });

  it('Gemini’s per-day RESOURCE_EXHAUSTED mid-stream → Messages client: billing_error', async () => {
    t.h.mocks.ca.next(raw(chunk('partial answer') + errorChunk({ code: 429, message: GEMINI_QUOTA, status: 'RESOURCE_EXHAUSTED', details: geminiQuota('GenerateRequestsPerDayPerProjectPerModel-FreeTier') })));
    const stream = await anthropic().messages.create({ model: 'ca/qwen3-coder', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const e = await refusal((async () => {
      for await (const ev of stream) void ev;
    })());
    expect((e.error as { error: { type: string; code: string } }).error).toMatchObject({ type: 'billing_error', code: 'upstream_billing' });
  });

  it('as the first event (nothing went out yet) → Chat client: the HTTP 402, not to be retried', async () => {
    t.h.mocks.ca.next(raw(errorChunk(openaiQuota)));
    const e = await refusal(openai().chat.completions.create({ model: 'ca/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
    expect(advice(e)).toEqual(NO_RETRY);
    expect(e.code).toBe('upstream_billing');
  });
});
