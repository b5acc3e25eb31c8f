/**
 * Counting tokens waits for a provider as a generation does: the settings' upstream timeouts
 * (connectTimeoutMs, headersTimeoutMs, idleTimeoutMs), not a fixed minute of its own.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
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
