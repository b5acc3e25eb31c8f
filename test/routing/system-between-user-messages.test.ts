/**
 * A Messages client's `{role:"system"}` message between two user messages (Anthropic merges the
 * two into one turn): toward targets that keep a mid-conversation system message in place, it
 * stays between the two messages' content — Chat targets and Responses both take consecutive user
 * messages — instead of trailing the merged turn. Gemini and Mistral models get it joined into
 * the leading system message, the user turn one message, as before; a chat template that refuses
 * it (Qwen, Gemma 2) gets it where it takes it, Gemma's two user messages one again (its roles
 * must alternate; Qwen's template renders user turns one by one and checks only where a system
 * message stands, so its consecutive user messages stay). An OpenAI client's system message
 * between two user messages reaches Gemini joined the same way, its user messages one again.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
const client = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
const mid = { role: 'system', content: 'Mind this.' } as unknown as Anthropic.MessageParam;
const between: Anthropic.MessageParam[] = [{ role: 'user', content: 'First.' }, mid, { role: 'user', content: 'Second.' }];

async function send(model: string, messages = between): Promise<void> {
  const res = await client().messages.create({ model, max_tokens: 100, system: 'Lead.', messages });
  expect(res.content.map((b) => b.type), model).toContain('text');
}

type Sent = Array<{ role: string; content: unknown }>;

describe('a system message between two user messages of a Messages client', () => {
  it('Chat target that keeps it in place: user, system, user as written', async () => {
    await send('openrouter/z-ai/glm-4.6');
    expect(t.h.mocks.openrouter.lastGeneration().body.messages).toEqual([
      { role: 'system', content: 'Lead.' },
      { role: 'user', content: 'First.' },
      { role: 'system', content: 'Mind this.' },
      { role: 'user', content: 'Second.' },
    ]);
  });

  it('after tool results: the tool message, then the system message, then the user text', async () => {
    await send('openrouter/z-ai/glm-4.6', [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'Sunny.' }] },
      mid,
      { role: 'user', content: 'And Rome?' },
    ]);
    const sent = t.h.mocks.openrouter.lastGeneration().body.messages as Sent;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'system', 'user']);
    expect(sent.slice(-2)).toEqual([
      { role: 'system', content: 'Mind this.' },
      { role: 'user', content: 'And Rome?' },
    ]);
  });

  it('Responses target: user, system, user input messages', async () => {
    await send('openai/gpt-5.4');
    const body = t.h.mocks.openai.lastGeneration().body as { instructions: string; input: unknown };
    expect(body.instructions).toBe('Lead.');
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'First.' }] },
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Mind this.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Second.' }] },
    ]);
  });

  it('Gemini and Mistral models: joined into the leading system message, the user turn one message, as before', async () => {
    const joined = [
      { role: 'system', content: 'Lead.\n\nMind this.' },
      { role: 'user', content: [{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }] },
    ];
    await send('gemini/gemini-2.5-flash');
    expect(t.h.mocks.gemini.lastGeneration().body.messages).toEqual(joined);
    await send('openrouter/mistralai/Mistral-Small-3.2-24B-Instruct-2506');
    expect(t.h.mocks.openrouter.lastGeneration().body.messages).toEqual(joined);
  });

  it('a template that takes a system message only first (Qwen): the later one a user message where it stood', async () => {
    await send('ca/qwen3.6-27b');
    expect(t.h.mocks.ca.lastGeneration().body.messages).toEqual([
      { role: 'system', content: 'Lead.' },
      { role: 'user', content: 'First.' },
      { role: 'user', content: 'Mind this.' },
      { role: 'user', content: 'Second.' },
    ]);
  });

  it('a template without a system role whose roles alternate (Gemma 2): one user message, the system text first', async () => {
    await send('ca/gemma-2-9b-it');
    const sent = t.h.mocks.ca.generations().map((r) => r.body.messages as Sent);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual([{ role: 'user', content: 'Lead.\n\nMind this.\n\nFirst.\n\nSecond.' }]);
  });
});

describe('a system message between two user messages of an OpenAI client, to a Gemini model', () => {
  const openai = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
  const joined = [
    { role: 'system', content: 'Lead.\n\nMind this.' },
    { role: 'user', content: 'First.\n\nSecond.' },
  ];

  it('Chat (passthrough): joined into the leading system message, the two user messages one again', async () => {
    const res = await openai().chat.completions.create({
      model: 'gemini/gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Lead.' },
        { role: 'user', content: 'First.' },
        { role: 'system', content: 'Mind this.' },
        { role: 'user', content: 'Second.' },
      ],
    });
    expect(res.choices[0]!.message.content).toBeTruthy();
    expect(t.h.mocks.gemini.lastGeneration().body.messages).toEqual(joined);
  });

  it('Responses (converted): the same, the user turn one message as from a Messages client', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'First.' },
      { role: 'system', content: 'Mind this.' },
      { role: 'user', content: 'Second.' },
    ];
    const res = await openai().responses.create({ model: 'gemini/gemini-2.5-flash', instructions: 'Lead.', input });
    expect(res.output_text).toBeTruthy();
    expect(t.h.mocks.gemini.lastGeneration().body.messages).toEqual([
      { role: 'system', content: 'Lead.\n\nMind this.' },
      { role: 'user', content: [{ type: 'text', text: 'First.' }, { type: 'text', text: 'Second.' }] },
    ]);
    // consecutive user messages the client wrote itself stay as written
    await openai().responses.create({ model: 'gemini/gemini-2.5-flash', input: [{ role: 'user', content: 'One.' }, { role: 'user', content: 'Two.' }] });
    expect(t.h.mocks.gemini.lastGeneration().body.messages).toEqual([
      { role: 'user', content: 'One.' },
      { role: 'user', content: 'Two.' },
    ]);
  });
});
