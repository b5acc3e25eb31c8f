/**
 * A Gemini model the native list states does not think (gemini-2.0-flash) refuses any
 * `reasoning_effort`, `none` too ("Thinking is not enabled for models/…"): once the daemon has
 * listed Gemini it sends such a model none, whatever the client asked. Before any list, and for a
 * model that thinks, the effort goes as before.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.mocks.gemini.models.push('models/gemini-2.0-flash');
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const chat = () => new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
const messages = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'hi' }];

function sentEfforts(): unknown[] {
  return h.mocks.gemini.generations().map((g) => (g.body as { reasoning_effort?: unknown }).reasoning_effort);
}

describe('Gemini effort for a model that does not think', () => {
  it('not listed yet: the effort goes as before, and Google refuses it', async () => {
    const refused = await chat()
      .chat.completions.create({ model: 'gemini/gemini-2.0-flash', reasoning_effort: 'low', messages: hello })
      .then(() => undefined, (err: unknown) => err);
    expect(sentEfforts()[0]).toBe('low');
    expect(String(refused)).toContain('Thinking is not enabled for models/gemini-2.0-flash');
  });

  it('once listed: no effort, none included, from a Chat or a Messages client; a thinking model still gets its own', async () => {
    const listed = await chat().models.list();
    expect(listed.data.map((m) => m.id)).toContain('gemini/gemini-2.0-flash');

    for (const effort of ['high', 'none'] as const) {
      const r = await chat().chat.completions.create({ model: 'gemini/gemini-2.0-flash', reasoning_effort: effort, messages: hello });
      expect(r.choices[0]?.message.content).toBeTruthy();
    }
    const m = await messages().messages.create({ model: 'gemini/gemini-2.0-flash', max_tokens: 100, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: hello });
    expect(m.content.length).toBeGreaterThan(0);
    expect(sentEfforts()).toEqual([undefined, undefined, undefined]);

    h.reset();
    await chat().chat.completions.create({ model: 'gemini/gemini-2.5-flash', reasoning_effort: 'low', messages: hello });
    expect(sentEfforts()).toEqual(['low']);
  });
});
