/**
 * Models that number their calls per turn repeat ids across a conversation: Kimi's `list_dir:0`
 * (vllm-project/vllm#50295, fw-ai/fireconnect#16). A Chat client pairs each result with the turn
 * before it, so such a history is valid Chat; Anthropic wants tool_use ids unique in a request and
 * OpenAI's Responses API call ids unique too. A session begun on Kimi must go on on them — and a
 * Messages or Responses client, which got Kimi's ids as they were, must go on on Kimi itself.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness();
const client = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'list_dir', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];

function turn(path: string): OpenAI.Chat.ChatCompletionMessageParam[] {
  return [
    { role: 'assistant', content: null, tool_calls: [{ id: 'list_dir:0', type: 'function', function: { name: 'list_dir', arguments: JSON.stringify({ path }) } }] },
    { role: 'tool', tool_call_id: 'list_dir:0', content: `listing of ${path}` },
  ];
}
const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'List . then /.' }, ...turn('.'), { role: 'user', content: 'And /?' }, ...turn('/')];

describe('a Chat history whose calls repeat an id from an earlier turn (Kimi)', () => {
  it('anthropic/…: answered; each call and its result share an id no other call has', async () => {
    const answer = await client().chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', tools, messages: history });
    expect(answer.choices[0]!.message.content).toBe('Tool said: listing of /');
    const sent = t.h.mocks.anthropic.lastGeneration().body.messages as Array<{ content: Array<{ type: string; id?: string; tool_use_id?: string }> }>;
    const blocks = sent.flatMap((m) => m.content);
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
    const results = blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
    expect(new Set(uses).size).toBe(2);
    expect(results).toEqual(uses);
  });

  it('openai/…, streamed: answered; the calls go with two call ids, each output with its call’s', async () => {
    const final = await client().chat.completions.stream({ model: 'openai/gpt-5', tools, messages: history }).finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe('Tool said: listing of /');
    const input = t.h.mocks.openai.lastGeneration().body.input as Array<{ type: string; call_id?: string }>;
    const calls = input.filter((i) => i.type === 'function_call').map((i) => i.call_id);
    const outputs = input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id);
    expect(new Set(calls).size).toBe(2);
    expect(outputs).toEqual(calls);
  });

  it('one id twice in one turn is still refused: its results could not be told apart', async () => {
    const err = await client()
      .chat.completions.create({
        model: 'anthropic/claude-sonnet-4-5',
        tools,
        messages: [
          { role: 'user', content: 'List both.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'list_dir:0', type: 'function', function: { name: 'list_dir', arguments: '{"path":"."}' } },
              { id: 'list_dir:0', type: 'function', function: { name: 'list_dir', arguments: '{"path":"/"}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'list_dir:0', content: 'a' },
          { role: 'tool', tool_call_id: 'list_dir:0', content: 'b' },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('invalid_tool_call');
    expect(t.h.mocks.anthropic.generations()).toHaveLength(0);
  });
});

function pairedChatIds(): { calls: string[]; results: string[] } {
  const messages = t.h.mocks.ca.lastGeneration().body.messages as Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
  return {
    calls: messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)),
    results: messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id!),
  };
}

describe('Messages and Responses clients on a model that repeats its ids (Kimi behind an endpoint)', () => {
  it('a Messages client (Claude Code): its third turn is answered; the endpoint gets the first id as it was and a fresh one for the repeat', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const use = (path: string): Anthropic.MessageParam => ({ role: 'assistant', content: [{ type: 'tool_use', id: 'list_dir:0', name: 'list_dir', input: { path } }] });
    const result = (path: string): Anthropic.MessageParam => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'list_dir:0', content: `listing of ${path}` }] });
    const message = await client.messages.create({
      model: 'ca/kimi-k3',
      max_tokens: 1000,
      tools: [{ name: 'list_dir', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'List . then /.' }, use('.'), result('.'), use('/'), result('/')],
    });
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: listing of /' })]);
    expect(pairedChatIds()).toEqual({ calls: ['list_dir:0', 'list_dir:0_2'], results: ['list_dir:0', 'list_dir:0_2'] });
  });

  it('a Responses client (Codex), streamed: answered on Kimi and on Claude', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'List . then /.' }];
    for (const path of ['.', '/']) {
      input.push({ type: 'function_call', call_id: 'list_dir:0', name: 'list_dir', arguments: JSON.stringify({ path }) });
      input.push({ type: 'function_call_output', call_id: 'list_dir:0', output: `listing of ${path}` });
    }
    const rtools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'list_dir', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false }];
    const onKimi = await client.responses.stream({ model: 'ca/kimi-k3', input, tools: rtools, store: false }).finalResponse();
    expect(onKimi.output_text).toBe('Tool said: listing of /');
    expect(pairedChatIds()).toEqual({ calls: ['list_dir:0', 'list_dir:0_2'], results: ['list_dir:0', 'list_dir:0_2'] });
    const onClaude = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', input, tools: rtools, store: false });
    expect(onClaude.output_text).toBe('Tool said: listing of /');
  });

  it('a Responses call_id used again before its output came is still refused', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const err = await client.responses
      .create({
        model: 'ca/kimi-k3',
        input: [
          { role: 'user', content: 'List both.' },
          { type: 'function_call', call_id: 'list_dir:0', name: 'list_dir', arguments: '{}' },
          { type: 'function_call', call_id: 'list_dir:0', name: 'list_dir', arguments: '{}' },
          { type: 'function_call_output', call_id: 'list_dir:0', output: 'a' },
        ],
      })
      .catch((e: unknown) => e);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('invalid_tool_call');
  });
});

describe('an answer whose call takes an id the conversation has (Kimi on its second tool turn)', () => {
  const again = (): Reply => ({ kind: 'turn', turn: { toolCalls: [{ id: 'list_dir:0', name: 'list_dir', arguments: { path: '/' } }] } });

  it('a Messages client gets it under a fresh id, whole and streamed, and the session then goes on on Claude (passed through)', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const kimiId = `svcp_${Buffer.from('list_dir:0').toString('base64url')}`;
    const tools: Anthropic.Tool[] = [{ name: 'list_dir', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: 'List . then /.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: kimiId, name: 'list_dir', input: { path: '.' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: kimiId, content: 'listing of .' }] },
    ];
    t.h.mocks.ca.next(again());
    const whole = await client.messages.create({ model: 'ca/kimi-k3', max_tokens: 1000, tools, messages: history });
    t.h.mocks.ca.next(again());
    const streamed = await client.messages.stream({ model: 'ca/kimi-k3', max_tokens: 1000, tools, messages: history }).finalMessage();
    for (const answer of [whole, streamed]) {
      const use = answer.content.find((b) => b.type === 'tool_use')!;
      expect(use.id).toBe(`svcp_${Buffer.from('list_dir:0_2').toString('base64url')}`);
      expect(use.id).not.toBe(kimiId);
    }
    const use = whole.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    const onClaude = await client.messages.create({
      model: 'anthropic/claude-sonnet-4-5',
      max_tokens: 1000,
      tools,
      messages: [...history, { role: 'assistant', content: [use] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'listing of /' }] }],
    });
    expect(onClaude.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: listing of /' })]);
  });

  it('a Responses client gets it under a fresh call_id, whole and streamed', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'List . then /.' },
      { type: 'function_call', call_id: 'list_dir:0', name: 'list_dir', arguments: '{"path":"."}' },
      { type: 'function_call_output', call_id: 'list_dir:0', output: 'listing of .' },
    ];
    const rtools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'list_dir', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false }];
    t.h.mocks.ca.next(again());
    const whole = await client.responses.create({ model: 'ca/kimi-k3', input, tools: rtools, store: false });
    t.h.mocks.ca.next(again());
    const streamed = await client.responses.stream({ model: 'ca/kimi-k3', input, tools: rtools, store: false }).finalResponse();
    for (const answer of [whole, streamed]) {
      expect(answer.output.find((o) => o.type === 'function_call')).toMatchObject({ call_id: 'list_dir:0_2', arguments: '{"path":"/"}' });
    }
  });

  it('an id the conversation does not have is left as it is', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    t.h.mocks.ca.next(again());
    const answer = await client.responses.create({ model: 'ca/kimi-k3', input: 'List /.', tools: [{ type: 'function', name: 'list_dir', parameters: null, strict: false }], store: false });
    expect(answer.output.find((o) => o.type === 'function_call')).toMatchObject({ call_id: 'list_dir:0' });
  });
});
