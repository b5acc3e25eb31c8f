/**
 * An upstream that read a whole request on a fresh connection and then reset it (it crashed while
 * working on it) may have generated: the request is not sent again (only a pooled connection
 * closed under the request is, upstream-client.ts), and the client gets upstream_reset in its own
 * dialect from the official SDK.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

describe('a fresh upstream connection reset after the request was read', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h.close());

  it('Chat passthrough: one generation, a 502 upstream_reset', async () => {
    h.mocks.openrouter.next({ kind: 'reset' });
    const call = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).chat.completions.create({ model: 'openrouter/qwen/qwen3-coder', messages: [{ role: 'user', content: 'hi' }] });
    await expect(call).rejects.toMatchObject({ status: 502, code: 'upstream_reset' });
    expect(h.mocks.openrouter.generations()).toHaveLength(1);
  });

  it('Messages converted to Responses: one generation, a 502 upstream_reset in the Messages error shape', async () => {
    h.mocks.openai.next({ kind: 'reset' });
    const call = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 }).messages.create({ model: 'openai/gpt-5.4', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] });
    await expect(call).rejects.toMatchObject({
      status: 502,
      error: { type: 'error', error: { type: 'api_error', code: 'upstream_reset', message: expect.stringMatching(/^openai: .* closed the connection before the response was complete/) } },
    });
    expect(h.mocks.openai.generations()).toHaveLength(1);
  });
});
