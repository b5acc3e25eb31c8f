/**
 * A stream cut at a stop sequence its target could not take has no usage from its upstream (the
 * request is dropped at the cut): the client's usage and the request log's are the input the
 * upstream reported before the cut, else an estimate of the request, and an estimate of the
 * output relayed (stop-cut-usage.ts).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { textTokenCounter } from '../../src/providers/local-token-estimate.js';
import { useHarness } from './harness.js';

const t = useHarness();
const TEXT = 'One, two. END three, four, five, six, seven, eight, nine, ten.';

describe('usage of a stream cut at a stop', () => {
  it('Chat client with include_usage, openai/… (no input reported before the cut): input and output estimated, in the usage chunk and the log', async () => {
    const count = await textTokenCounter();
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 2 } } });
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Count to ten, please.' }], stop: ['END'], stream: true, stream_options: { include_usage: true } });
    let content = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('One, two. ');
    expect(finish).toBe('stop');
    expect(usage!.completion_tokens).toBe(count('One, two. '));
    // the prompt's words and the framing of its one message
    expect(usage!.prompt_tokens).toBeGreaterThan(count('Count to ten, please.'));
    expect(usage!.total_tokens).toBe(usage!.prompt_tokens + usage!.completion_tokens);

    const [log] = await t.h.waitForLogs(1);
    expect(log!.status).toBe(200);
    expect(log!.errorCode).toBeUndefined();
    expect(log!.usage).toEqual({ input: usage!.prompt_tokens, output: usage!.completion_tokens });
  });

  it('Chat client, anthropic/… with a whitespace stop: the input Anthropic reported at message_start, the output estimated', async () => {
    const count = await textTokenCounter();
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'First line.\n\nSecond line.', usage: { input: 42, output: 9 }, stream: { chunk: 3 } } });
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'Two lines.' }], stop: ['\n\n'], stream: true, stream_options: { include_usage: true } });
    let content = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('First line.');
    expect(usage).toMatchObject({ prompt_tokens: 42, completion_tokens: count('First line.') });
    const [log] = await t.h.waitForLogs(1);
    expect(log!.usage).toMatchObject({ input: 42, output: count('First line.') });
  });

  it('Messages client, openai/…: message_delta carries the estimates', async () => {
    const count = await textTokenCounter();
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 4 } } });
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const stream = client.messages.stream({ model: 'openai/gpt-5', max_tokens: 100, messages: [{ role: 'user', content: 'Count to ten, please.' }], stop_sequences: ['END'] });
    const deltas: Anthropic.RawMessageDeltaEvent[] = [];
    stream.on('streamEvent', (ev) => {
      if (ev.type === 'message_delta') deltas.push(ev);
    });
    const res = await stream.finalMessage();
    expect(res.stop_reason).toBe('stop_sequence');
    expect(deltas).toHaveLength(1);
    expect(deltas[0]!.usage.output_tokens).toBe(count('One, two. '));
    expect(deltas[0]!.usage.input_tokens).toBeGreaterThan(count('Count to ten, please.'));
  });
});
