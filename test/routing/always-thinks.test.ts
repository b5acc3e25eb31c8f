/**
 * Fable and Mythos think always: Anthropic refuses thinking {type:"disabled"} there ('"thinking.type.disabled"
 * is not supported for this model.': cline/cline#13203). A client's "off" goes as thinking left out,
 * what such a model takes in its place; other Claudes still get "disabled" as sent. Anthropic's list
 * states it per model (`capabilities.thinking.types.disabled`), which rules over the id once listed.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // read from its id as taking thinking off; this list says it does not
  h.mocks.anthropic.models.push('claude-opus-4-8');
  h.mocks.anthropic.thinkingTypes['claude-opus-4-8'] = { adaptive: true, enabled: false, disabled: false };
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const messages = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'hi' }];

describe('thinking "disabled" to a Claude that thinks always', () => {
  it('goes without thinking to Fable and Mythos, and as sent to Opus 4.7', async () => {
    for (const model of ['claude-fable-5', 'claude-mythos-5']) {
      await messages().messages.create({ model: `anthropic/${model}`, max_tokens: 1000, thinking: { type: 'disabled' }, output_config: { effort: 'low' }, messages: hello });
      const body = h.mocks.anthropic.lastGeneration().body as Record<string, unknown>;
      expect(body, model).not.toHaveProperty('thinking');
      expect(body.output_config, model).toEqual({ effort: 'low' });
    }
    await messages().messages.create({ model: 'anthropic/claude-opus-4-7', max_tokens: 1000, thinking: { type: 'disabled' }, messages: hello });
    expect((h.mocks.anthropic.lastGeneration().body as Record<string, unknown>).thinking).toEqual({ type: 'disabled' });
  });

  it('goes without thinking to a model the list states refuses it, once listed (before, as sent, and Anthropic refuses it)', async () => {
    const off = () => messages().messages.create({ model: 'anthropic/claude-opus-4-8', max_tokens: 1000, thinking: { type: 'disabled' }, messages: hello });
    await expect(off()).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/thinking\.type\.disabled.{0,3} is not supported for this model/) });
    await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.list();
    await off();
    expect(h.mocks.anthropic.lastGeneration().body).not.toHaveProperty('thinking');
  });
});
