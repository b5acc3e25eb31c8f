/**
 * thinking {type:"between_tools"} is thinking off with short progress notes between tool calls
 * (PROTOCOLS.md §7.2). Anthropic's list states per model whether it takes it
 * (`capabilities.thinking.types.between_tools`, a 400 exactly where false); no id rule is known.
 * Once the list states a model refuses it, a Messages client's between_tools goes as thinking left
 * out (off, without the notes); where it states the model takes it, as sent. To a target that is not
 * Claude it is reasoning off.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.mocks.anthropic.thinkingTypes['claude-haiku-4-5'] = { adaptive: false, enabled: true, betweenTools: true };
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const messages = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'hi' }];
const betweenTools = (model: string) => messages().messages.create({ model, max_tokens: 1000, thinking: { type: 'between_tools' }, messages: hello });

describe('thinking "between_tools"', () => {
  it('goes as sent until the list is read; then without thinking where the list says the model refuses it, as sent where it says it takes it', async () => {
    await expect(betweenTools('anthropic/claude-opus-4-7')).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/thinking\.type\.between_tools.{0,3} is not supported for this model/) });
    await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).models.list();
    await betweenTools('anthropic/claude-opus-4-7');
    expect(h.mocks.anthropic.lastGeneration().body).not.toHaveProperty('thinking');
    await betweenTools('anthropic/claude-haiku-4-5');
    expect((h.mocks.anthropic.lastGeneration().body as Record<string, unknown>).thinking).toEqual({ type: 'between_tools' });
  });

  it('is reasoning off to a chat-dialect target', async () => {
    await betweenTools('gemini/gemini-2.5-flash');
    expect(h.mocks.gemini.lastGeneration().body.reasoning_effort).toBe('none');
  });
});
