/**
 * Counting tokens waits for a provider by the settings' upstream timeouts (connectTimeoutMs,
 * headersTimeoutMs, idleTimeoutMs), a user's lower ones included, but for its answer never past a
 * minute: Claude Code counts often, and a hung count must not wait as long as a generation may.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { countTimeouts } from '../../src/routing/count-timeouts.js';
import { useHarness } from './harness.js';

// undici checks its timeouts about once a second: the answers come well after that
const t = useHarness({ settings: { headersTimeoutMs: 200 } });
const LATE = 2_500;

describe('count_tokens and input_tokens follow settings.headersTimeoutMs', () => {
  it('Messages count_tokens: a 504 upstream_timeout in the client\'s shape', async () => {
    t.h.mocks.anthropic.on(/count_tokens/, { kind: 'json', body: { input_tokens: 5 }, delayMs: LATE });
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const err = await client.messages.countTokens({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err).toMatchObject({ status: 504, error: { type: 'error', error: { code: 'upstream_timeout' } } });
  });

  it('Responses input_tokens: a 504 upstream_timeout in the client\'s shape', async () => {
    t.h.mocks.openai.on(/input_tokens/, { kind: 'json', body: { object: 'response.input_tokens', input_tokens: 5 }, delayMs: LATE });
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const err = await client.responses.inputTokens.count({ model: 'openai/gpt-5.4', input: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err).toMatchObject({ status: 504, code: 'upstream_timeout' });
  });
});

describe('a count waits for its answer at most a minute', () => {
  const withSettings = (settings: Partial<ReturnType<typeof defaultConfig>['settings']>) => {
    const config = defaultConfig();
    return { ...config, settings: { ...config.settings, ...settings } };
  };

  it('the defaults (a generation waits 600 s for headers, 300 s of silence): a count waits 60 s for each', () => {
    expect(countTimeouts(withSettings({}))).toEqual({ connectTimeoutMs: 10_000, headersTimeoutMs: 60_000, idleTimeoutMs: 60_000 });
  });

  it('a user\'s lower timeouts are the count\'s too', () => {
    expect(countTimeouts(withSettings({ connectTimeoutMs: 3_000, headersTimeoutMs: 20_000, idleTimeoutMs: 5_000 }))).toEqual({ connectTimeoutMs: 3_000, headersTimeoutMs: 20_000, idleTimeoutMs: 5_000 });
  });
});
