/**
 * The verbosity a Responses client asks for (`text.verbosity`) reaches OpenRouter as its top-level
 * `verbosity` (PROTOCOLS.md §5.3: Anthropic models read it as their effort); other Chat servers
 * are not sent it.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();

describe('verbosity to a converted Chat upstream', () => {
  it('Responses client to openrouter/…: sent as top-level verbosity', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    await client.responses.create({ model: 'openrouter/anthropic/claude-opus-4.7', input: 'Hi', text: { verbosity: 'low' } });
    const [sent] = t.h.mocks.openrouter.generations();
    expect(sent!.body.verbosity).toBe('low');
  });

  it('Responses client to gemini/…: not sent', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    await client.responses.create({ model: 'gemini/gemini-2.5-flash', input: 'Hi', text: { verbosity: 'high' } });
    const [sent] = t.h.mocks.gemini.generations();
    expect(sent!.body).not.toHaveProperty('verbosity');
  });
});
