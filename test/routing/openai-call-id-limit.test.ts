/**
 * OpenAI's Responses API refuses a `call_id` over 64 characters (400 string_above_max_length), and
 * other models issue longer ones: Kimi K2 names a call `functions.<tool name>:<n>`, and an MCP tool's
 * name alone may take 64. A conversation that goes on on `openai/…` with such a call in its history
 * must not fail on it.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { hasLongCallId } from '../../src/providers/openai-call-ids.js';
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

describe('call ids over OpenAI’s 64 characters in a Responses client’s own body (passed through)', () => {
  const rtools: OpenAI.Responses.Tool[] = [{ type: 'function', name: TOOL, parameters, strict: false }];
  const history = (earlier: string): OpenAI.Responses.ResponseInputItem[] => [
    { role: 'user', content: earlier },
    { role: 'user', content: 'Reply to both threads.' },
    { type: 'function_call', call_id: KIMI_ID, name: TOOL, arguments: '{"body":"a"}' },
    { type: 'function_call', call_id: OTHER_ID, name: TOOL, arguments: '{"body":"b"}' },
    { type: 'function_call_output', call_id: KIMI_ID, output: 'replied a' },
    { type: 'function_call_output', call_id: OTHER_ID, output: 'replied b' },
  ];

  // a small body is parsed whole; Codex's large one is read lazily and only scanned for such an id
  for (const [size, earlier] of [['small', 'Hello.'], ['large', 'x'.repeat(40 * 1024)]] as const) {
    for (const stream of [false, true]) {
      it(`Codex on a session Kimi began, ${size} body${stream ? ', streamed' : ''}: answered; each call and its output go with one id of at most 64 characters`, async () => {
        const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
        const params = { model: 'openai/gpt-5', input: history(earlier), tools: rtools, store: false };
        const answer = stream ? await client.responses.stream(params).finalResponse() : await client.responses.create(params);
        expect(answer.output_text).toBe('Tool said: replied b');
        const [callA, callB, outA, outB] = sentCalls();
        expect(callA!.call_id!.length).toBeLessThanOrEqual(64);
        expect(callB!.call_id).not.toBe(callA!.call_id);
        expect([outA!.call_id, outB!.call_id]).toEqual([callA!.call_id, callB!.call_id]);
        // the same shortening as a converted history's
        await client.chat.completions.create({
          model: 'openai/gpt-5',
          tools: [{ type: 'function', function: { name: TOOL, parameters } }],
          messages: [
            { role: 'user', content: 'Reply.' },
            { role: 'assistant', content: null, tool_calls: [{ id: KIMI_ID, type: 'function', function: { name: TOOL, arguments: '{}' } }] },
            { role: 'tool', tool_call_id: KIMI_ID, content: 'replied' },
          ],
        });
        expect(sentCalls()[0]!.call_id).toBe(callA!.call_id);
      });
    }
  }

  it('a body without such an id goes as the client sent it', async () => {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'x'.repeat(40 * 1024) },
      { type: 'function_call', call_id: 'call_1', name: TOOL, arguments: '{"body":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: `a call_id of ${'y'.repeat(80)} in text` },
    ];
    const raw = JSON.stringify({ model: 'openai/gpt-5', input, tools: rtools, store: false });
    await client.responses.create({ model: 'openai/gpt-5', input, tools: rtools, store: false });
    expect(t.h.mocks.openai.lastGeneration().raw.length).toBe(Buffer.byteLength(raw) - 'openai/'.length);
  });
});

describe('hasLongCallId', () => {
  const id65 = 'i'.repeat(65);
  it.each([
    [`{"type":"function_call","call_id":"${id65}"}`, true],
    [`{"call_id": "${id65}"}`, true],
    [`{"call_id":"${'i'.repeat(64)}"}`, false],
    [`{"call_id":"a\\"}, {"text":"${id65}"}`, false],
    [`{"my_id":"${id65}"}`, false],
    [`{"output":"call_id ${id65}"}`, false],
  ])('%s: %s', (json, expected) => {
    expect(hasLongCallId(Buffer.from(`[${json}]`))).toBe(expected);
  });
});
