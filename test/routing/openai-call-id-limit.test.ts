/**
 * OpenAI's Responses API refuses a `call_id` over 64 characters (400 string_above_max_length), and
 * other models issue longer ones: Kimi K2 names a call `functions.<tool name>:<n>`, and an MCP tool's
 * name alone may take 64. A conversation that goes on on `openai/…` with such a call in its history
 * must not fail on it.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
const TOOL = 'mcp__github__create_pull_request_review_comment_reply_to_thread';
const KIMI_ID = `functions.${TOOL}:12`;
const OTHER_ID = `functions.${TOOL}:13`;
const parameters = { type: 'object', properties: { body: { type: 'string' } } };

interface Sent {
  type: string;
  call_id?: string;
}

function sentCalls(): Sent[] {
  return (t.h.mocks.openai.lastGeneration().body.input as Sent[]).filter((i) => i.type === 'function_call' || i.type === 'function_call_output');
}

describe('call ids over OpenAI’s 64 characters, from a conversation begun on another model', () => {
  it('a Chat client: answered; each call and its output go with one id of at most 64 characters, two calls with two', async () => {
    expect(KIMI_ID.length).toBeGreaterThan(64);
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const answer = await client.chat.completions.create({
      model: 'openai/gpt-5',
      tools: [{ type: 'function', function: { name: TOOL, parameters } }],
      messages: [
        { role: 'user', content: 'Reply to both threads.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: KIMI_ID, type: 'function', function: { name: TOOL, arguments: '{"body":"a"}' } },
            { id: OTHER_ID, type: 'function', function: { name: TOOL, arguments: '{"body":"b"}' } },
          ],
        },
        { role: 'tool', tool_call_id: KIMI_ID, content: 'replied a' },
        { role: 'tool', tool_call_id: OTHER_ID, content: 'replied b' },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe('Tool said: replied b');
    const [callA, callB, outA, outB] = sentCalls();
    expect(callA!.call_id!.length).toBeLessThanOrEqual(64);
    expect(outA!.call_id).toBe(callA!.call_id);
    expect(outB!.call_id).toBe(callB!.call_id);
    expect(callB!.call_id).not.toBe(callA!.call_id);
  });

  it('a Messages client (Claude Code on a session Kimi began), streamed: answered', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const message = await client.messages
      .stream({
        model: 'openai/gpt-5',
        max_tokens: 1000,
        tools: [{ name: TOOL, input_schema: { type: 'object', properties: { body: { type: 'string' } } } }],
        messages: [
          { role: 'user', content: 'Reply to the thread.' },
          // the id Kimi's call reached this client with (svcp_ + base64url: Anthropic's own id pattern)
          { role: 'assistant', content: [{ type: 'tool_use', id: `svcp_${Buffer.from(KIMI_ID).toString('base64url')}`, name: TOOL, input: { body: 'a' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: `svcp_${Buffer.from(KIMI_ID).toString('base64url')}`, content: 'replied' }] },
        ],
      })
      .finalMessage();
    expect(message.content.find((b) => b.type === 'text')).toMatchObject({ text: 'Tool said: replied' });
    const [call, out] = sentCalls();
    expect(call!.call_id!.length).toBeLessThanOrEqual(64);
    expect(out!.call_id).toBe(call!.call_id);
  });

  it('an id within the limit goes as it is', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const id = `functions.read_file:3`;
    await client.chat.completions.create({
      model: 'openai/gpt-5',
      tools: [{ type: 'function', function: { name: 'read_file', parameters } }],
      messages: [
        { role: 'user', content: 'Read it.' },
        { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: id, content: 'text' },
      ],
    });
    expect(sentCalls().map((i) => i.call_id)).toEqual([id, id]);
  });
});
