/**
 * Proof kept for a Chat client that drops it, on a Chat upstream passed through, when the model
 * numbers its calls per turn (Kimi's `functions.list_dir:0`, each turn): the proof is kept under
 * the id the call has in the hub next turn (call-id-reuse.ts), as on the converted path, so each
 * replayed turn gets its own back — not the latest turn's under the shared id.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { chatCallIdsOf } from '../../src/routing/chat-call-ids.js';
import { ReasoningCache } from '../../src/routing/reasoning-cache.js';
import { attachToChatBody, rememberChatAnswer } from '../../src/routing/reasoning-continuity.js';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness();
const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'list_dir', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const ID = 'functions.list_dir:0';

/** A typical client keeps only role, content and tool_calls of an assistant message. */
function replay(m: OpenAI.Chat.ChatCompletionMessage, result: string): OpenAI.Chat.ChatCompletionMessageParam[] {
  return [
    { role: 'assistant', content: null, tool_calls: m.tool_calls!.map((c) => (c.type === 'function' ? { id: c.id, type: c.type, function: c.function } : c)) },
    { role: 'tool', tool_call_id: m.tool_calls![0]!.id, content: result },
  ];
}

describe('a Chat client on OpenRouter (passed through) whose model repeats its call id each turn', () => {
  const answer = (thought: string, path: string): Reply => ({ kind: 'turn', turn: { reasoning: { text: thought }, toolCalls: [{ id: ID, name: 'list_dir', arguments: { path } }] } });

  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'whole'}: each replayed turn gets back the reasoning_details it was answered with`, async () => {
      const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
      const ask = async (messages: OpenAI.Chat.ChatCompletionMessageParam[]): Promise<OpenAI.Chat.ChatCompletionMessage> => {
        const params = { model: 'openrouter/anthropic/claude-sonnet-4.5', reasoning_effort: 'high' as const, tools, messages };
        const done = stream ? await client.chat.completions.stream(params).finalChatCompletion() : await client.chat.completions.create(params);
        return done.choices[0]!.message;
      };
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'List . then /.' }];
      t.h.mocks.openrouter.next(answer('First the current folder.', '.'));
      history.push(...replay(await ask(history), 'listing of .'));
      t.h.mocks.openrouter.next(answer('Now the root.', '/'));
      const second = await ask(history);
      // passed through: the client gets the upstream's id as it came
      expect(second.tool_calls![0]!.id).toBe(ID);
      history.push(...replay(second, 'listing of /'));

      t.h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'Done.' } });
      await ask(history);
      const sent = t.h.mocks.openrouter.lastGeneration().body as { messages: Array<{ role: string; reasoning_details?: Array<{ text?: string }> }> };
      const thoughts = sent.messages.filter((m) => m.role === 'assistant').map((m) => m.reasoning_details?.map((d) => d.text).join(''));
      expect(thoughts).toEqual(['First the current folder.', 'Now the root.']);
    });
  }
});

describe('a Chat client on Gemini (passed through) whose calls repeat an id each turn', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'whole'}: each replayed call gets back its own thought signature`, async () => {
      const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
      const ask = async (messages: OpenAI.Chat.ChatCompletionMessageParam[]): Promise<OpenAI.Chat.ChatCompletionMessage> => {
        const params = { model: 'gemini/gemini-3-pro-preview', tools, messages };
        const done = stream ? await client.chat.completions.stream(params).finalChatCompletion() : await client.chat.completions.create(params);
        return done.choices[0]!.message;
      };
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'List . then /.' }];
      for (const [path, signature] of [['.', 'CiQBsigOne'], ['/', 'CiQBsigTwo']] as const) {
        // Gemini checks the signatures of the steps after the latest user message only (the mock's are by id)
        if (path === '/') history.push({ role: 'user', content: 'And /?' });
        t.h.mocks.gemini.next({ kind: 'turn', turn: { toolCalls: [{ id: ID, name: 'list_dir', arguments: { path }, thoughtSignature: signature }] } });
        history.push(...replay(await ask(history), `listing of ${path}`));
      }
      t.h.mocks.gemini.next({ kind: 'turn', turn: { text: 'Done.' } });
      await ask(history);
      const sent = t.h.mocks.gemini.lastGeneration().body as { messages: Array<{ role: string; tool_calls?: Array<{ extra_content?: { google?: { thought_signature?: string } } }> }> };
      const signatures = sent.messages.filter((m) => m.role === 'assistant').map((m) => m.tool_calls![0]!.extra_content?.google?.thought_signature);
      expect(signatures).toEqual(['CiQBsigOne', 'CiQBsigTwo']);
    });
  }
});

describe('rememberChatAnswer and chatCallIdsOf', () => {
  const answer = (details: boolean): Record<string, unknown> => ({
    choices: [{ message: { role: 'assistant', tool_calls: [{ id: ID, type: 'function', function: { name: 'list_dir', arguments: '{}' } }], ...(details ? { reasoning_details: [{ type: 'reasoning.text', text: 'Now the root.' }] } : {}) } }],
  });
  const call = { id: ID, type: 'function', function: { name: 'list_dir', arguments: '{}' } };
  const body = {
    model: 'm',
    messages: [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: ID, content: 'a' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: ID, content: 'b' },
    ],
  };

  it('the conversation’s calls by their hub ids; an answer’s repeat kept under the next one', () => {
    const taken = chatCallIdsOf(() => structuredClone(body));
    expect([ID, `${ID}_2`, `${ID}_3`].map(taken)).toEqual([true, true, false]);
    const cache = new ReasoningCache().scope('k');
    rememberChatAnswer(cache, 'or', answer(true), taken);
    expect(cache.get(`${ID}_3`)?.reasoningDetails).toEqual([{ type: 'reasoning.text', text: 'Now the root.' }]);
    expect(cache.get(ID)).toBeUndefined();
  });

  it('an answer with calls but no proof to keep does not read the conversation', () => {
    let read = 0;
    rememberChatAnswer(new ReasoningCache().scope('k'), 'or', answer(false), chatCallIdsOf(() => (read++, structuredClone(body))));
    expect(read).toBe(0);
  });
});

describe('a session passed through on a model that repeats its call ids, then taken to Claude or GPT', () => {
  it('a Chat client (Kimi behind a Chat endpoint, then anthropic/… and openai/…): the history goes with ids unique, each result with its call’s', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'List . then /.' }];
    for (const path of ['.', '/']) {
      t.h.mocks.ca.next({ kind: 'turn', turn: { toolCalls: [{ id: ID, name: 'list_dir', arguments: { path } }] } });
      const answer = await client.chat.completions.create({ model: 'ca/kimi-k3', tools, messages: history });
      expect(answer.choices[0]!.message.tool_calls![0]!.id).toBe(ID);
      history.push(...replay(answer.choices[0]!.message, `listing of ${path}`));
    }
    const onClaude = await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', tools, messages: history });
    expect(onClaude.choices[0]!.message.content).toBe('Tool said: listing of /');
    const blocks = (t.h.mocks.anthropic.lastGeneration().body.messages as Array<{ content: Array<{ type: string; id?: string; tool_use_id?: string }> }>).flatMap((m) => m.content);
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    expect(new Set(uses).size).toBe(2);
    expect(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)).toEqual(uses);

    const onGpt = await client.chat.completions.create({ model: 'openai/gpt-5', tools, messages: history });
    expect(onGpt.choices[0]!.message.content).toBe('Tool said: listing of /');
    const input = t.h.mocks.openai.lastGeneration().body.input as Array<{ type: string; call_id?: string }>;
    const calls = input.filter((i) => i.type === 'function_call').map((i) => i.call_id);
    expect(new Set(calls).size).toBe(2);
    expect(input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id)).toEqual(calls);
  });

  it('a Messages client (Kimi behind a Messages endpoint, then anthropic/…, passed through too): answered', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const mtools: Anthropic.Tool[] = [{ name: 'list_dir', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'List . then /.' }];
    for (const [path, stream] of [['.', false], ['/', true]] as const) {
      t.h.mocks.cb.next({ kind: 'turn', turn: { toolCalls: [{ id: 'list_dir_0', name: 'list_dir', arguments: { path } }] } });
      const params = { model: 'cb/kimi-k3', max_tokens: 1000, tools: mtools, messages: history };
      const answer = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      const use = answer.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
      history.push({ role: 'assistant', content: [use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: `listing of ${path}` }] });
    }
    // Anthropic refuses the repeated id once; the body goes again with it renamed, as the decoder would
    for (const stream of [false, true]) {
      const params = { model: 'anthropic/claude-sonnet-4-5', max_tokens: 1000, tools: mtools, messages: history };
      const onClaude = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      expect(onClaude.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: listing of /' })]);
      const blocks = (t.h.mocks.anthropic.lastGeneration().body.messages as Array<{ content: Array<{ type: string; id?: string; tool_use_id?: string }> | string }>).flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
      expect(blocks.filter((b) => b.type === 'tool_use').map((b) => b.id)).toEqual(['list_dir_0', 'list_dir_0_2']);
      expect(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id)).toEqual(['list_dir_0', 'list_dir_0_2']);
    }
    // and the session goes on on the endpoint too
    const onKimi = await client.messages.create({ model: 'cb/kimi-k3', max_tokens: 1000, tools: mtools, messages: history });
    expect(onKimi.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: listing of /' })]);
  });
});

describe('attachToChatBody', () => {
  it('names the conversation’s calls as chatCallIdsOf does, so the answer’s proof is kept by them without the body read again', () => {
    const call = { id: ID, type: 'function', function: { name: 'list_dir', arguments: '{}' } };
    const body = {
      model: 'm',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: ID, content: 'a' },
        { role: 'assistant', content: null, tool_calls: [{ ...call, id: 'other' }, call] },
        { role: 'tool', tool_call_id: 'other', content: 'b' },
        { role: 'tool', tool_call_id: ID, content: 'c' },
      ],
    };
    const cache = new ReasoningCache().scope('k');
    cache.set(ID, { slug: 'or', reasoningDetails: [{ type: 'reasoning.text', text: 'First.' }] });
    const named = attachToChatBody(cache, structuredClone(body), 'or');
    const read = chatCallIdsOf(() => structuredClone(body));
    for (const id of [ID, `${ID}_2`, `${ID}_3`, 'other', 'other_2']) expect(named?.(id), id).toBe(read(id));
    expect(named?.(`${ID}_2`)).toBe(true);
  });

  it('a conversation it does not read (nothing kept yet) names none: the ids are read from the body then', () => {
    expect(attachToChatBody(new ReasoningCache().scope('k'), { model: 'm', messages: [{ role: 'user', content: 'x' }] }, 'or')).toBeUndefined();
  });
});
