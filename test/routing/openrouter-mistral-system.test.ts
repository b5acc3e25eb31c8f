/**
 * A Mistral model behind OpenRouter (`openrouter/mistralai/…`, in the mixed case its ids come in)
 * with a system message from the middle of a Messages client's conversation: Mistral refuses one
 * after the first message (the OpenRouter mock passes its words on in metadata.raw), and the model
 * is named as Mistral's, so every system text goes in the leading message from the first request,
 * with no refused round trip. (A Chat client's body goes as written and is fitted after the
 * refusal: test/e2e/openai-client.test.ts.)
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
type Sent = Array<{ role: string; content: unknown }>;
const sent = (): Sent[] => t.h.mocks.openrouter.generations().map((r) => r.body.messages as Sent);

describe('a mid-conversation system message to a Mistral model behind OpenRouter', () => {
  it('Messages client: joined from the first request', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const res = await client.messages.create({
      model: 'openrouter/mistralai/Devstral-Medium-2507',
      max_tokens: 100,
      system: 'You are a calculator.',
      messages: [
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: '4.' },
        { role: 'system', content: 'From now on, a number only.' } as unknown as Anthropic.MessageParam,
        { role: 'user', content: 'And 3+3?' },
      ],
    });
    expect(res.content).toEqual([{ type: 'text', text: 'Echo: And 3+3?' }]);
    expect(sent()).toEqual([
      [
        { role: 'system', content: 'You are a calculator.\n\nFrom now on, a number only.' },
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: '4.' },
        { role: 'user', content: 'And 3+3?' },
      ],
    ]);
  });
});
