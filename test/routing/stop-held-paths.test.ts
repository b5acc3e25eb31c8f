/**
 * Stop sequences held by routing (stop-cut-*.ts) on the paths around them: a group falls back
 * before the first byte as ever and the cut is the answering target's; calls the model made after
 * the stop never reach the client (Anthropic ends at the stop and writes no tool_use after it);
 * an echoed credential is masked however the held text is cut.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { KEYS, useHarness } from './harness.js';

const t = useHarness({ groups: { team: [{ name: 'mix', targets: ['openrouter/openai/gpt-4o', 'openai/gpt-5'] }, { name: 'back', targets: ['openai/gpt-5', 'openrouter/openai/gpt-4o'] }] } });
const TEXT = 'One, two. END three, four.';
const CALL = { name: 'get_weather', arguments: { city: 'Paris' } };

const anthropic = (): Anthropic => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
const openai = (base = t.h.a): OpenAI => new OpenAI({ baseURL: base, apiKey: 'k', maxRetries: 0 });
const tools = [{ name: 'get_weather', description: 'Weather.', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }];

describe('held stops on a group', () => {
  it('the first target fails before its first byte: the next, which cannot take the stop, answers cut', async () => {
    t.h.mocks.openrouter.next({ kind: 'json', status: 503, body: { error: { message: 'busy', code: 503 } } });
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 2 } } });
    const stream = await openai(t.h.groupA('team')).chat.completions.create({ model: 'mix', messages: [{ role: 'user', content: 'Count.' }], stop: ['END'], stream: true });
    let content = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(t.h.mocks.openrouter.lastGeneration().body.stop).toEqual(['END']);
    expect(t.h.mocks.openai.lastGeneration().body).not.toHaveProperty('stop');
    expect(content).toBe('One, two. ');
    expect(finish).toBe('stop');
    const [log] = await t.h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, provider: 'openai' });
    expect(log!.errorCode).toBeUndefined();
  });

  it('the first target (openai/…, stop held) fails: the one that takes the stop answers as it wrote', async () => {
    t.h.mocks.openai.next({ kind: 'json', status: 503, body: { error: { message: 'busy', type: 'server_error' } } });
    // the mock does not stop at END: what it sends shows the proxy cut nothing on a target that took the stop
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: TEXT, stream: { chunk: 2 } } });
    const stream = await openai(t.h.groupA('team')).chat.completions.create({ model: 'back', messages: [{ role: 'user', content: 'Count.' }], stop: ['END'], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe(TEXT);
  });
});

describe('calls after a held stop', () => {
  it('Messages client, streamed and whole: the text before the stop, no tool_use, stop_sequence', async () => {
    const params = { model: 'openai/gpt-5', max_tokens: 100, tools, messages: [{ role: 'user' as const, content: 'Weather?' }], stop_sequences: ['END'] };
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, toolCalls: [CALL], stream: { chunk: 3 } } });
    const streamed = await anthropic().messages.stream(params).finalMessage();
    expect(streamed.content.map((b) => b.type)).toEqual(['text']);
    expect(streamed.stop_reason).toBe('stop_sequence');
    expect(streamed.stop_sequence).toBe('END');

    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, toolCalls: [CALL] } });
    const whole = await anthropic().messages.create(params);
    expect(whole.content.map((b) => b.type)).toEqual(['text']);
    expect(whole.stop_reason).toBe('stop_sequence');
  });

  it('Chat client, streamed: no tool_calls delta, finish_reason stop', async () => {
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: TEXT, toolCalls: [CALL], stream: { chunk: 3 } } });
    const stream = await openai().chat.completions.create({
      model: 'openai/gpt-5',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      stop: ['END'],
      stream: true,
    });
    let content = '';
    const finishes: string[] = [];
    let calls = 0;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      calls += chunk.choices[0]?.delta.tool_calls?.length ?? 0;
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
    }
    expect(content).toBe('One, two. ');
    expect(calls).toBe(0);
    expect(finishes).toEqual(['stop']);
  });
});

describe('an echoed credential with a held stop', () => {
  it('masked whether the stop comes after it or the held text begins inside it', async () => {
    const key = KEYS.openai;
    // the held end ("sk" of "skip") is also the credential's start, streamed a character at a time
    t.h.mocks.openai.next({ kind: 'turn', turn: { text: `Key ${key} then skip the rest.`, stream: { chunk: 1 } } });
    const stream = await openai().chat.completions.create({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Echo.' }], stop: ['skip'], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).not.toContain(key);
    expect(content).toBe('Key [REDACTED] then ');
    const [log] = await t.h.waitForLogs(1);
    expect(JSON.stringify(log)).not.toContain(key);
  });
});

describe('the upstream connection of a stream with a held stop', () => {
  it('kept when no stop came (the answer ended as the upstream ended it); dropped only at a cut', async () => {
    // paced: a cut comes before the upstream has written all
    const ask = async (text: string): Promise<string> => {
      t.h.mocks.openai.next({ kind: 'turn', turn: { text, stream: { chunk: 4, delayMs: 3 } } });
      const stream = await openai().chat.completions.create({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'Count.' }], stop: ['STOP'], stream: true });
      let content = '';
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
      return content;
    };
    expect(await ask(TEXT)).toBe(TEXT);
    t.h.mocks.openai.connectionsAccepted = 0;
    expect(await ask(TEXT)).toBe(TEXT);
    const kept = t.h.mocks.openai.lastGeneration();
    await kept.done;
    expect(kept.closedEarly).toBe(false);
    expect(t.h.mocks.openai.connectionsAccepted).toBe(0);

    expect(await ask('Go on, then STOP here and ramble on for a while longer.')).toBe('Go on, then ');
    const dropped = t.h.mocks.openai.lastGeneration();
    await dropped.done;
    expect(dropped.closedEarly).toBe(true);
  });
});
