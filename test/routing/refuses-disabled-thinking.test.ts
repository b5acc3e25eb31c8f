/**
 * Opus 4.7, Mythos and Fable take adaptive thinking only; Anthropic refuses thinking {type:"disabled"}
 * there ('"thinking.type.disabled" is not supported for this model.': cline/cline#13203; PROTOCOLS.md
 * §4.1.2), and thinking is off when it is left out (§7.2). A client's "off" goes as thinking left
 * out; other Claudes still get "disabled" as sent. Anthropic's list states it per model
 * (`capabilities.thinking.types.disabled`), which rules over the id once listed.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // read from its id as taking "disabled" (budget thinking); this list says it does not
  h.mocks.anthropic.thinkingTypes['claude-sonnet-4-5'] = { adaptive: false, enabled: true, disabled: false };
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const messages = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'hi' }];

describe('thinking "disabled" to a Claude that refuses it', () => {
  it('goes without thinking to an adaptive-only Claude by its id (Fable, Mythos, Opus 4.7), its effort kept; as sent to Haiku 4.5', async () => {
    for (const model of ['claude-fable-5', 'claude-mythos-5', 'claude-opus-4-7']) {
      await messages().messages.create({ model: `anthropic/${model}`, max_tokens: 1000, thinking: { type: 'disabled' }, output_config: { effort: 'low' }, messages: hello });
      const body = h.mocks.anthropic.lastGeneration().body as Record<string, unknown>;
      expect(body, model).not.toHaveProperty('thinking');
      expect(body.output_config, model).toEqual({ effort: 'low' });
    }
    await messages().messages.create({ model: 'anthropic/claude-haiku-4-5', max_tokens: 1000, thinking: { type: 'disabled' }, messages: hello });
    expect((h.mocks.anthropic.lastGeneration().body as Record<string, unknown>).thinking).toEqual({ type: 'disabled' });
  });

  it('the list rules over the id once read: "disabled" goes as sent where it states the model takes it, without thinking where it states not', async () => {
    const off = (model: string) => messages().messages.create({ model: `anthropic/${model}`, max_tokens: 1000, thinking: { type: 'disabled' }, messages: hello });
    await expect(off('claude-sonnet-4-5')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/thinking\.type\.disabled.{0,3} is not supported for this model/) });
    await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.list();
    await off('claude-sonnet-4-5');
    expect(h.mocks.anthropic.lastGeneration().body).not.toHaveProperty('thinking');
    await off('claude-opus-4-7');
    expect((h.mocks.anthropic.lastGeneration().body as Record<string, unknown>).thinking).toEqual({ type: 'disabled' });
  });
});
