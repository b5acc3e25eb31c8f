/**
 * Models that number their calls per turn repeat ids across a conversation: Kimi's `list_dir:0`
 * (vllm-project/vllm#50295, fw-ai/fireconnect#16). A Chat client pairs each result with the turn
 * before it, so such a history is valid Chat; Anthropic wants tool_use ids unique in a request and
 * OpenAI's Responses API call ids unique too. A session begun on Kimi must go on on them.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
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
