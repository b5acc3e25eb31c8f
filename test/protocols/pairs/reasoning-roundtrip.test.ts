/**
 * Reasoning across turns through a client of another dialect (regression: "thinking signature
 * lost across turns"). Turn 1: an upstream answer (whole, or streamed and read by the client's
 * official SDK) reaches the client. Turn 2: the client sends its history back the way it holds
 * it; converted for the same upstream, the proof must be there byte for byte, in the place the
 * upstream wants it — never turned into text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../../src/protocols/hub.js';
import { ReasoningCache } from '../../../src/routing/reasoning-cache.js';
import { attachToHub, rememberOutput, StreamReasoningCollector } from '../../../src/routing/reasoning-continuity.js';
import { plain, readJson, type Loose } from '../shared/helpers.js';
import { CODECS, contextFor, convertRequest, convertResponse, convertStream, FIXTURES, resolveTarget, upstreamEvents } from './harness.js';
import { sdkFinal } from './sdk-readers.js';

type Json = Record<string, Loose>;

function fixture(rel: string): Json {
  return readJson<Json>(join(FIXTURES, rel));
}

function bytes(rel: string): Buffer {
  return readFileSync(join(FIXTURES, rel));
}

/** Turn 1 as the client holds it: the whole answer, or what its SDK accumulated from the stream. */
async function turnOne(client: Dialect, upstream: Dialect, model: string, kind: 'whole' | 'streamed', source: string): Promise<Json> {
  const ctx = contextFor(client, model);
  if (kind === 'whole') return convertResponse(client, upstream, fixture(source).input, ctx) as Json;
  return plain(await sdkFinal(client, convertStream(client, upstream, [bytes(source)], ctx))) as Json;
}

const ANTHROPIC_UPSTREAM = {
  whole: {
    source: 'chat-to-messages/response/thinking-text-tools.json',
    blocks: [
      { type: 'thinking', thinking: 'The user wants weather in two cities; call the tool twice.', signature: 'EqQBCkgIARABGAIiQL+sig==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
    ],
  },
  streamed: {
    source: 'chat-to-messages/stream/thinking-text-tools.upstream.sse',
    blocks: [
      { type: 'thinking', thinking: 'Need weather for 東京 🌧️ and nothing else.', signature: 'EqQBCkgIARABGAIiQL+sig==' },
      { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
    ],
  },
} as const;

const WEATHER_TOOL = { name: 'get_weather', description: 'Weather for a city.', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

/** The assistant turn of an Anthropic request body that holds tool_use blocks. */
function toolUseTurn(body: Json): Json[] {
  const turn = (body.messages as Json[]).find((m) => m.role === 'assistant' && (m.content as Json[]).some((b) => b.type === 'tool_use'));
  return turn!.content as Json[];
}

describe('Anthropic thinking through a Chat client and back', () => {
  for (const kind of ['whole', 'streamed'] as const) {
    const { source, blocks } = ANTHROPIC_UPSTREAM[kind];
    for (const keeps of ['everything', 'only reasoning_details', 'only thinking_blocks'] as const) {
      it(`${kind} answer, client keeps ${keeps}: thinking blocks come back first, unmodified`, async () => {
        const answer = await turnOne('chat', 'messages', 'anthropic/claude-sonnet-4-5', kind, source);
        const message: Json = { ...answer.choices[0].message };
        if (keeps === 'only reasoning_details') delete message.thinking_blocks;
        if (keeps === 'only thinking_blocks') delete message.reasoning_details;
        const request = {
          model: 'anthropic/claude-sonnet-4-5',
          reasoning_effort: 'high',
          tools: [{ type: 'function', function: WEATHER_TOOL }],
          messages: [
            { role: 'user', content: 'Weather?' },
            message,
            ...(message.tool_calls as Json[]).map((tc) => ({ role: 'tool', tool_call_id: tc.id, content: 'sunny' })),
          ],
        };
        const content = toolUseTurn(convertRequest('chat', 'messages', 'anthropic/claude-sonnet-4-5', request));
        expect(content.slice(0, blocks.length)).toEqual(blocks);
        expect(content.slice(blocks.length).every((b) => b.type === 'text' || b.type === 'tool_use')).toBe(true);
        expect(JSON.stringify(content.filter((b) => b.type === 'text'))).not.toContain(blocks[0].thinking);
      });
    }
  }
});

describe('Anthropic thinking through a Responses client and back', () => {
  for (const kind of ['whole', 'streamed'] as const) {
    const { source, blocks } = ANTHROPIC_UPSTREAM[kind];
    it(`${kind} answer: output items sent back as input give the same thinking blocks, first in the tool-use turn`, async () => {
      const answer = await turnOne('responses', 'messages', 'anthropic/claude-sonnet-4-5', kind, source);
      const output = answer.output as Json[];
      expect(output.filter((i) => i.type === 'reasoning').every((i) => typeof i.encrypted_content === 'string' && i.id.startsWith('rs_'))).toBe(true);
      const request = {
        model: 'anthropic/claude-sonnet-4-5',
        reasoning: { effort: 'high' },
        tools: [{ type: 'function', ...WEATHER_TOOL }],
        input: [
          { role: 'user', content: 'Weather?' },
          ...output,
          ...output.filter((i) => i.type === 'function_call').map((i) => ({ type: 'function_call_output', call_id: i.call_id, output: 'sunny' })),
        ],
      };
      const content = toolUseTurn(convertRequest('responses', 'messages', 'anthropic/claude-sonnet-4-5', request));
      expect(content.slice(0, blocks.length)).toEqual(blocks);
    });
  }
});

describe('OpenAI encrypted reasoning through a Messages client and back', () => {
  const cases = {
    whole: { source: 'messages-to-responses/response/reasoning-calls-message.json', id: 'rs_68b0cur', encrypted: 'gAAAAABoCurTurnBlob==', summary: '**Listing**\n\nRun ls.' },
    streamed: { source: 'messages-to-responses/stream/reasoning-call-text.upstream.sse', id: 'rs_s1', encrypted: 'gAAAAABoStreamBlob==', summary: '**Plan** — météo ☁️\n\nCall the tool.' },
  } as const;
  for (const kind of ['whole', 'streamed'] as const) {
    const c = cases[kind];
    for (const keeps of ['blocks as returned', 'only type/thinking/signature (clear_thinking)'] as const) {
      it(`${kind} answer, client keeps ${keeps}: a reasoning item with its id and encrypted content right before the call`, async () => {
        const answer = await turnOne('messages', 'responses', 'openai/gpt-5.2', kind, c.source);
        let content = answer.content as Json[];
        if (keeps !== 'blocks as returned') content = content.map((b) => (b.type === 'thinking' ? { type: b.type, thinking: b.thinking, signature: b.signature } : b));
        const request = {
          model: 'openai/gpt-5.2',
          max_tokens: 4096,
          tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }, { name: 'get_weather', input_schema: WEATHER_TOOL.parameters }],
          messages: [
            { role: 'user', content: 'Go.' },
            { role: 'assistant', content },
            { role: 'user', content: content.filter((b) => b.type === 'tool_use').map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: 'ok' })) },
          ],
        };
        const input = convertRequest('messages', 'responses', 'openai/gpt-5.2', request).input as Json[];
        const at = input.findIndex((i) => i.type === 'reasoning');
        expect(input[at]).toEqual({ type: 'reasoning', id: c.id, summary: [{ type: 'summary_text', text: c.summary }], encrypted_content: c.encrypted });
        expect(input[at + 1]!.type).toBe('function_call');
        expect(input.filter((i) => i.type === 'reasoning')).toHaveLength(1);
        expect(JSON.stringify(input.filter((i) => i.type === 'message'))).not.toContain('svcp1.');
      });
    }
  }
});

describe('OpenRouter reasoning_details through a Messages client and back', () => {
  it('the details go back verbatim on the assistant message with the tool calls', async () => {
    const upstreamBody = fixture('messages-to-chat/response/openrouter-reasoning-tools.json').input;
    const answer = await turnOne('messages', 'chat', 'openrouter/anthropic/claude-sonnet-4.5', 'whole', 'messages-to-chat/response/openrouter-reasoning-tools.json');
    const content = answer.content as Json[];
    const request = {
      model: 'openrouter/anthropic/claude-sonnet-4.5',
      max_tokens: 4096,
      tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content },
        { role: 'user', content: content.filter((b) => b.type === 'tool_use').map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: 'ok' })) },
      ],
    };
    const messages = convertRequest('messages', 'chat', 'openrouter/anthropic/claude-sonnet-4.5', request).messages as Json[];
    const assistant = messages.find((m) => m.role === 'assistant')!;
    expect(assistant.reasoning_details).toEqual(upstreamBody.choices[0].message.reasoning_details);
    expect(assistant.content).toBe('Running two commands.');
  });
});

describe('Gemini thought signatures through a Messages client and back (with routing’s per-call cache)', () => {
  // A Messages client has no field for them: the codecs hand routing the signature on the hub call
  // (non-streamed item / streamed block_start), routing keeps it by call id and puts it back.
  const target = 'gemini/gemini-3-pro-preview';
  const { model, opts } = resolveTarget(target, 'chat');

  function turnTwo(callId: string): Json {
    return {
      model: target,
      max_tokens: 1024,
      tools: [{ name: 'get_weather', input_schema: WEATHER_TOOL.parameters }],
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: callId, name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: 'sunny' }] },
      ],
    };
  }

  function encodedWith(cache: ReasoningCache, request: Json): Json {
    const hub = CODECS.messages.decodeRequest(request);
    return plain(CODECS.chat.encodeRequest({ ...hub, model, items: attachToHub(cache, hub.items, 'gemini', false) }, opts)) as Json;
  }

  it('whole answer: the signature comes back on the same tool call', () => {
    const upstream = fixture('messages-to-chat/response/gemini-tool-call-stop.json').input;
    const hubAnswer = CODECS.chat.decodeResponse(upstream);
    const client = plain(CODECS.messages.encodeResponse(hubAnswer, contextFor('messages', target))) as Json;
    expect(JSON.stringify(client)).not.toContain('CiQBVKhc7ySig==');
    const cache = new ReasoningCache();
    rememberOutput(cache, 'gemini', hubAnswer.output, false);
    const call = (client.content as Json[])[0]!;
    const body = encodedWith(cache, turnTwo(call.id));
    expect((body.messages as Json[])[1]!.tool_calls).toEqual([
      { id: 'function-call-9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' }, extra_content: { google: { thought_signature: 'CiQBVKhc7ySig==' } } },
    ]);
  });

  it('streamed answer: the signature comes back on the same tool call', () => {
    const cache = new ReasoningCache();
    const collector = new StreamReasoningCollector(cache, 'gemini', false);
    for (const ev of upstreamEvents('chat', [bytes('messages-to-chat/stream/gemini-thought-signature.upstream.sse')])) collector.onEvent(ev);
    const body = encodedWith(cache, turnTwo('function-call-7'));
    expect(((body.messages as Json[])[1]!.tool_calls as Json[])[0]!.extra_content).toEqual({ google: { thought_signature: 'CiQBVKhc7yStream==' } });
  });

  it('without the cache (another provider made the call) no signature is invented', () => {
    const body = encodedWith(new ReasoningCache(), turnTwo('function-call-9'));
    expect(((body.messages as Json[])[1]!.tool_calls as Json[])[0]!.extra_content).toBeUndefined();
  });
});
