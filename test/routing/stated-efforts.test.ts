/**
 * The effort levels Anthropic's model list states (`capabilities.effort`) rule over those read from
 * the model's id once the daemon has listed the provider: a level the model lacks is snapped to the
 * nearest it has (as OpenAI's are), and a model that takes none gets none, its thinking kept. Before
 * any list, the levels read from the id stand (a request never waits for a list).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // Sonnet 4.6's id reads as taking `max`; this list says it does not
  h.mocks.anthropic.models.push('claude-sonnet-4-6', 'claude-opus-4-6');
  h.mocks.anthropic.efforts['claude-sonnet-4-6'] = ['low', 'medium', 'high'];
  h.mocks.anthropic.efforts['claude-opus-4-6'] = [];
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const messages = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
const chat = () => new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'hi' }];

function sent(): { effort: unknown; thinking: unknown } {
  const body = h.mocks.anthropic.lastGeneration().body as { output_config?: { effort?: unknown }; thinking?: unknown };
  return { effort: body.output_config?.effort, thinking: body.thinking };
}

describe('effort levels from Anthropic’s model list', () => {
  it('before the list is read the id’s levels stand; after it, a level the list says the model lacks is snapped to one it takes', async () => {
    await messages().messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 100, thinking: { type: 'adaptive' }, output_config: { effort: 'max' }, messages: hello });
    expect(sent().effort, 'not listed yet: the id says max').toBe('max');

    const listed = await chat().models.list();
    expect(listed.data.map((m) => m.id)).toContain('anthropic/claude-sonnet-4-6');

    await messages().messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 100, thinking: { type: 'adaptive' }, output_config: { effort: 'max' }, messages: hello });
    expect(sent()).toEqual({ effort: 'high', thinking: { type: 'adaptive' } });
    // a converted request too: xhigh from a Chat client
    await chat().chat.completions.create({ model: 'anthropic/claude-sonnet-4-6', reasoning_effort: 'xhigh', messages: hello });
    expect(sent()).toEqual({ effort: 'high', thinking: { type: 'adaptive' } });
    // a level it takes goes as asked
    await chat().chat.completions.create({ model: 'anthropic/claude-sonnet-4-6', reasoning_effort: 'low', messages: hello });
    expect(sent().effort).toBe('low');
  });

  it('a model the list says takes no effort gets none, and still thinks', async () => {
    await chat().models.list();
    await chat().chat.completions.create({ model: 'anthropic/claude-opus-4-6', reasoning_effort: 'high', messages: hello });
    expect(sent()).toEqual({ effort: undefined, thinking: { type: 'adaptive' } });
    await messages().messages.create({ model: 'anthropic/claude-opus-4-6', max_tokens: 100, thinking: { type: 'adaptive' }, output_config: { effort: 'medium' }, messages: hello });
    expect(sent()).toEqual({ effort: undefined, thinking: { type: 'adaptive' } });
  });

  it('a model the list states nothing of keeps the levels of its id', async () => {
    await chat().models.list();
    await messages().messages.create({ model: 'anthropic/claude-opus-4-5', max_tokens: 100, output_config: { effort: 'max' }, messages: hello });
    expect(sent().effort, 'Opus 4.5 is not listed: its id says low to high').toBe('high');
  });
});
