import { describe, expect, it } from 'vitest';
import { lastErrors } from '../../../src/tui/log/last-errors.js';
import { makeEntry } from '../../log/make-entry.js';

describe('lastErrors', () => {
  it('takes the newest failure per provider, from attempts (fallbacks too) and from refused requests', () => {
    const newest = makeEntry({
      time: '2026-01-01T10:00:03Z',
      status: 200,
      provider: 'anthropic',
      attempts: [
        { target: 'openai/gpt-5', status: 429, latencyMs: 5, errorCode: 'rate_limited' },
        { target: 'gemini/x', status: 0, latencyMs: 0, skipped: 'no audio' }, // policy, not the provider's fault
        { target: 'anthropic/claude', status: 200, latencyMs: 9 },
      ],
    });
    const refused = makeEntry({ time: '2026-01-01T10:00:02Z', status: 400, attempts: [], provider: undefined, modelAsked: 'openrouter/a/b', errorCode: 'provider_not_connected' });
    const older = makeEntry({ time: '2026-01-01T10:00:01Z', status: 502, attempts: [{ target: 'openai/gpt-5', status: 0, latencyMs: 9, errorCode: 'upstream_timeout' }] });
    const groupRefused = makeEntry({ base: 'group:work', status: 404, attempts: [], provider: undefined, modelAsked: 'x/y', errorCode: 'model_not_found' });
    const errors = lastErrors([newest, refused, older, groupRefused]);
    expect(errors.get('openai')).toEqual({ time: '2026-01-01T10:00:03Z', status: 429, code: 'rate_limited' });
    expect(errors.get('openrouter')).toEqual({ time: '2026-01-01T10:00:02Z', status: 400, code: 'provider_not_connected' });
    expect(errors.has('anthropic')).toBe(false);
    expect(errors.has('gemini')).toBe(false);
    expect(errors.has('x')).toBe(false); // a group's name is not a provider
  });
});

describe('lastErrors and a client that hung up', () => {
  it('does not count a client_disconnected attempt or request as the provider failing', () => {
    const leftDuringAttempt = makeEntry({
      time: '2026-01-01T10:00:02Z',
      status: 499,
      errorCode: 'client_disconnected',
      provider: undefined,
      attempts: [{ target: 'openai/gpt-5', status: 0, latencyMs: 4, errorCode: 'client_disconnected' }],
    });
    const leftBeforeAttempt = makeEntry({ time: '2026-01-01T10:00:01Z', status: 499, errorCode: 'client_disconnected', attempts: [], provider: undefined, modelAsked: 'anthropic/claude' });
    const realFailure = makeEntry({ time: '2026-01-01T10:00:00Z', status: 502, attempts: [{ target: 'openai/gpt-5', status: 503, latencyMs: 9, errorCode: 'upstream_error' }] });
    const errors = lastErrors([leftDuringAttempt, leftBeforeAttempt, realFailure]);
    expect(errors.get('openai')).toEqual({ time: '2026-01-01T10:00:00Z', status: 503, code: 'upstream_error' });
    expect(errors.has('anthropic')).toBe(false);
  });
});

describe('lastErrors and a request the daemon ended itself', () => {
  it('does not count an attempt cut by a revoked key or the drain deadline as the provider failing', () => {
    const revoked = makeEntry({
      time: '2026-01-01T10:00:03Z',
      status: 401,
      errorCode: 'invalid_api_key',
      provider: undefined,
      attempts: [{ target: 'openai/gpt-5', status: 0, latencyMs: 4, errorCode: 'invalid_api_key' }],
    });
    const revokedBeforeAttempt = makeEntry({ time: '2026-01-01T10:00:02Z', status: 401, errorCode: 'invalid_api_key', attempts: [], provider: undefined, modelAsked: 'anthropic/claude' });
    const drained = makeEntry({ time: '2026-01-01T10:00:01Z', status: 503, errorCode: 'shutting_down', provider: undefined, attempts: [{ target: 'openai/gpt-5', status: 200, latencyMs: 4, errorCode: 'shutting_down' }] });
    const realFailure = makeEntry({ time: '2026-01-01T10:00:00Z', status: 502, attempts: [{ target: 'openai/gpt-5', status: 503, latencyMs: 9, errorCode: 'upstream_error' }] });
    const errors = lastErrors([revoked, revokedBeforeAttempt, drained, realFailure]);
    expect(errors.get('openai')).toEqual({ time: '2026-01-01T10:00:00Z', status: 503, code: 'upstream_error' });
    expect(errors.has('anthropic')).toBe(false);
  });
});

describe('lastErrors and an audio upload the daemon refused while relaying it', () => {
  it('does not count the transcription attempt it cut (over the body limit, or the memory budget full) as the provider failing', () => {
    const cut = (time: string, code: string) => makeEntry({ time, status: code === 'proxy_overloaded' ? 503 : 413, errorCode: code, provider: undefined, attempts: [{ target: 'ca/whisper', status: 0, latencyMs: 4, errorCode: code }] });
    const realFailure = makeEntry({ time: '2026-01-01T10:00:00Z', status: 502, attempts: [{ target: 'ca/whisper', status: 500, latencyMs: 9, errorCode: 'upstream_error' }] });
    const errors = lastErrors([cut('2026-01-01T10:00:02Z', 'request_too_large'), cut('2026-01-01T10:00:01Z', 'proxy_overloaded'), realFailure]);
    expect(errors.get('ca')).toEqual({ time: '2026-01-01T10:00:00Z', status: 500, code: 'upstream_error' });
  });
});
