/**
 * A Chat client's `stop` and a Messages client's `stop_sequences` hold on targets that cannot take
 * them: OpenAI's Responses API has none, and Anthropic refuses a stop sequence of whitespace. The
 * answer is cut where the first stop sequence begins and ends as a stop (Chat `finish_reason:
 * "stop"`, Messages `stop_reason: "stop_sequence"` naming it), whole or streamed, and a stream's
 * upstream request is dropped there.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
const TEXT = 'One, two. END three, four, five, six, seven, eight, nine, ten.';

const openai = (): OpenAI => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
const anthropic = (): Anthropic => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });

describe('stop sequences a target cannot take', () => {
  it('Chat client to openai/…, whole: cut at the stop, finish_reason stop; no stop sent', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT } });
    const res = await openai().chat.completions.create({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Count.' }], stop: ['END'] });
    expect(res.choices[0]!.message.content).toBe('One, two. ');
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(t.h.mocks.openai.lastGeneration().body).not.toHaveProperty('stop');
  });

  it('Chat client to openai/…, streamed a character at a time: cut, and the upstream request dropped', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 1, delayMs: 3 } } });
    const stream = await openai().chat.completions.create({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Count.' }], stop: 'END', stream: true });
    let content = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(content).toBe('One, two. ');
    expect(finish).toBe('stop');
    const up = t.h.mocks.openai.lastGeneration();
    await up.done;
    expect(up.closedEarly).toBe(true);
  });

  it('Messages client to openai/…, whole and streamed: stop_reason stop_sequence naming it', async () => {
    const params = { model: 'openai/gpt-5', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Count.' }], stop_sequences: ['nothing', 'END'] };
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT } });
    const whole = await anthropic().messages.create(params);
    expect(whole.content).toEqual([{ type: 'text', text: 'One, two. ' }]);
    expect(whole.stop_reason).toBe('stop_sequence');
    expect(whole.stop_sequence).toBe('END');

    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 2 } } });
    const streamed = await anthropic().messages.stream(params).finalMessage();
    expect(streamed.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['One, two. ']);
    expect(streamed.stop_reason).toBe('stop_sequence');
    expect(streamed.stop_sequence).toBe('END');
  });

  it('Chat client to anthropic/… with a whitespace stop: the others sent, that one held here', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'First.\n\nSecond.' } });
    const res = await openai().chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'Two lines.' }], stop: ['\n\n', 'ZZZ'] });
    expect(t.h.mocks.anthropic.lastGeneration().body.stop_sequences).toEqual(['ZZZ']);
    expect(res.choices[0]!.message.content).toBe('First.');
    expect(res.choices[0]!.finish_reason).toBe('stop');
  });

  it('a stop the answer begins with: an empty answer that ended as a stop, whole and streamed', async () => {
    const params = { model: 'openai/gpt-5', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Count.' }], stop_sequences: ['One'] };
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT } });
    const whole = await anthropic().messages.create(params);
    expect(whole.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')).toBe('');
    expect(whole.stop_reason).toBe('stop_sequence');

    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 1 } } });
    const streamed = await anthropic().messages.stream(params).finalMessage();
    expect(streamed.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('')).toBe('');
    expect(streamed.stop_reason).toBe('stop_sequence');
    expect(streamed.stop_sequence).toBe('One');
  });

  it('Messages client with more stops than a Chat target takes: the first 4 sent (Gemini: 5), the rest held', async () => {
    const stops = ['S1', 'S2', 'S3', 'S4', 'S5', 'END'];
    const params = { max_tokens: 100, messages: [{ role: 'user' as const, content: 'Count.' }], stop_sequences: stops };
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: TEXT } });
    const res = await anthropic().messages.create({ ...params, model: 'openrouter/openai/gpt-4o' });
    expect(t.h.mocks.openrouter.lastGeneration().body.stop).toEqual(['S1', 'S2', 'S3', 'S4']);
    expect(res.content).toEqual([{ type: 'text', text: 'One, two. ' }]);
    expect(res.stop_reason).toBe('stop_sequence');
    expect(res.stop_sequence).toBe('END');

    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 2 } } });
    const streamed = await anthropic().messages.stream({ ...params, model: 'openrouter/openai/gpt-4o' }).finalMessage();
    expect(streamed.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['One, two. ']);
    expect(streamed.stop_sequence).toBe('END');

    t.h.mocks.gemini.next({ kind: 'turn', turn: { text: TEXT } });
    await anthropic().messages.create({ ...params, model: 'gemini/gemini-2.5-flash' });
    expect(t.h.mocks.gemini.lastGeneration().body.stop).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
  });

  it('an empty stop sequence stops nothing: the answer is not cut at its start', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT } });
    const res = await anthropic().messages.create({ model: 'openai/gpt-5', max_tokens: 100, messages: [{ role: 'user', content: 'Count.' }], stop_sequences: [''] });
    expect(res.content).toEqual([{ type: 'text', text: TEXT }]);
    expect(res.stop_reason).toBe('end_turn');

    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 3 } } });
    const streamed = await anthropic().messages.stream({ model: 'openrouter/openai/gpt-4o', max_tokens: 100, messages: [{ role: 'user', content: 'Count.' }], stop_sequences: [''] }).finalMessage();
    expect(t.h.mocks.openrouter.lastGeneration().body).not.toHaveProperty('stop');
    expect(streamed.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual([TEXT]);
  });

  it('no stop in the answer: it comes whole, as the upstream ended it', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 3 } } });
    const stream = await openai().chat.completions.create({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Count.' }], stop: ['STOP'], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe(TEXT);
  });
});
