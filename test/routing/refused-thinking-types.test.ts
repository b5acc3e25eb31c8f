/**
 * Opus 4.7, Mythos and Fable take adaptive thinking only; Anthropic refuses thinking {type:"disabled"}
 * there ('"thinking.type.disabled" is not supported for this model.': cline/cline#13203; PROTOCOLS.md
 * §4.1.2), and thinking is off when it is left out (§7.2). A client's "off" goes as thinking left
 * out; other Claudes still get "disabled" as sent. Anthropic's list states it per model
 * (`capabilities.thinking.types.disabled`), which rules over the id once listed.
 *
 * thinking {type:"between_tools"} is thinking off with short progress notes between tool calls
 * (§7.2); the list states per model whether it takes it (`types.between_tools`, a 400 exactly where
 * false), and no id rule is known. Once the list states a model refuses it, it goes as thinking left
 * out; where it states the model takes it, as sent. To a target that is not Claude it is reasoning off.
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
  h.mocks.anthropic.thinkingTypes['claude-haiku-4-5'] = { adaptive: false, enabled: true, betweenTools: true };
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

describe('thinking "between_tools"', () => {
  const betweenTools = (model: string) => messages().messages.create({ model, max_tokens: 1000, thinking: { type: 'between_tools' }, messages: hello });

  // (the describe above has listed Anthropic already; before a list it goes as sent: finalize-anthropic.test.ts)
  it('goes without thinking where the list says the model refuses it, as sent where it says it takes it', async () => {
    await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.list();
    await betweenTools('anthropic/claude-opus-4-7');
    expect(h.mocks.anthropic.lastGeneration().body).not.toHaveProperty('thinking');
    await betweenTools('anthropic/claude-haiku-4-5');
    expect((h.mocks.anthropic.lastGeneration().body as Record<string, unknown>).thinking).toEqual({ type: 'between_tools' });
  });

  // ThinkingTypes: each key read on its own; `disabled` is stated true of a model that does not think, `between_tools` not
  it('goes without thinking to a Claude that does not think where the list says it refuses it (claude-3-5-haiku)', async () => {
    await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.list();
    await betweenTools('anthropic/claude-3-5-haiku-20241022');
    expect(h.mocks.anthropic.lastGeneration().body).not.toHaveProperty('thinking');
  });

  it('is reasoning off to a chat-dialect target', async () => {
    await betweenTools('gemini/gemini-2.5-flash');
    expect(h.mocks.gemini.lastGeneration().body.reasoning_effort).toBe('none');
  });
});

describe('count_tokens of thinking the list says the model refuses', () => {
  it('counts as the generation goes: without thinking, where it was a 400', async () => {
    await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.list();
    const count = (model: string, type: 'disabled' | 'between_tools') => messages().messages.countTokens({ model, thinking: { type }, messages: hello });
    await expect(count('anthropic/claude-opus-4-7', 'between_tools')).resolves.toMatchObject({ input_tokens: expect.any(Number) });
    expect(h.mocks.anthropic.requests.at(-1)?.body).not.toHaveProperty('thinking');
    await expect(count('anthropic/claude-sonnet-4-5', 'disabled')).resolves.toMatchObject({ input_tokens: expect.any(Number) });
    expect(h.mocks.anthropic.requests.at(-1)?.body).not.toHaveProperty('thinking');
  });
});
