/**
 * A stream must say what the whole answer says: for the same upstream content, a client that
 * streams and accumulates with its official SDK ends with the same object as one that asks for the
 * whole answer. Every client protocol against every upstream dialect, over a range of contents.
 * Ids and timestamps minted per answer are left out of the comparison (see `minted`).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Reply, Turn } from '../fixtures/mock-upstream/index.js';
import { named, unnamed } from '../fixtures/mock-upstream/sse.js';
import { useHarness } from './harness.js';

type Obj = Record<string, unknown>;

const t = useHarness();
const openai = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });

const UPSTREAMS = ['anthropic/claude-sonnet-4-5', 'openai/gpt-5', 'openrouter/anthropic/claude-sonnet-4.5', 'gemini/gemini-2.5-pro', 'ca/some-model'] as const;
type Mock = (typeof t.h.mocks)[keyof typeof t.h.mocks];
const mockOf = (model: string): Mock => t.h.mocks[model.split('/')[0] as keyof typeof t.h.mocks];

const usage = { input: 120, output: 40 };
const CONTENTS: Record<string, Turn> = {
  'plain text': { text: 'Hello there, how can I help?', usage },
  'text and reasoning': { reasoning: { text: 'The user greets; greet back.', signature: 'sig-parity-1', encrypted: 'enc-parity-1' }, text: 'Hi!', usage },
  'one tool call': { toolCalls: [{ id: 'call_p1', name: 'get_weather', arguments: { city: 'Paris', units: 'c' }, thoughtSignature: 'CiQBparity1' }], usage },
  'parallel tool calls': {
    toolCalls: [
      { id: 'call_p1', name: 'get_weather', arguments: { city: 'Paris', units: 'c' }, thoughtSignature: 'CiQBparity1' },
      { id: 'call_p2', name: 'get_weather', arguments: { city: 'Tōkyō 東京', units: 'f' }, thoughtSignature: 'CiQBparity2' },
      { id: 'call_p3', name: 'get_time', arguments: {}, thoughtSignature: 'CiQBparity3' },
    ],
    stream: { interleaveToolCalls: true, chunk: 3 },
    usage,
  },
  'text then a tool call': { text: 'Let me look that up.', toolCalls: [{ id: 'call_p1', name: 'get_weather', arguments: { city: 'Oslo', units: 'c' }, thoughtSignature: 'CiQBparity4' }], usage },
  // one code point a chunk: the ZWJ sequence, the flag and the combining accents arrive in pieces
  'unicode split across chunks': { text: 'Cafe\u0301 👩‍💻 nai\u0308ve 東京タワー 🇯🇵 n\u0303 🎉🎉', stream: { chunk: 1 }, usage },
  'reasoning, text and parallel calls': {
    reasoning: { text: 'Two cities; ask both.', signature: 'sig-parity-3', encrypted: 'enc-parity-3' },
    text: 'Checking both.',
    toolCalls: [
      { id: 'call_p1', name: 'get_weather', arguments: { city: 'Paris', units: 'c' }, thoughtSignature: 'CiQBparity5' },
      { id: 'call_p2', name: 'get_weather', arguments: { city: 'Rome', units: 'c' }, thoughtSignature: 'CiQBparity6' },
    ],
    usage,
  },
  // Chat dialects: reasoning as <think>…</think> leading the content (servers without a reasoning parser)
  'inline think tags': { reasoning: { text: 'Short thought.', signature: 'sig-parity-4', encrypted: 'enc-parity-4' }, reasoningInline: true, text: 'Answer after thinking.', stream: { chunk: 2 }, usage },
  'inline think, opening tag in the prompt': { reasoning: { text: 'Prompted thought.', signature: 'sig-parity-5', encrypted: 'enc-parity-5' }, reasoningInline: true, thinkInPrompt: true, text: 'Answer.', stream: { chunk: 2 }, usage },
  // the answer was cut in its last item (arguments that still parse: the Anthropic mock's whole answer needs them as an object)
  'length stop in a tool call': { text: 'Looking.', toolCalls: [{ id: 'call_p1', name: 'get_weather', arguments: { city: 'Par' }, thoughtSignature: 'CiQBparity7' }], finish: 'length', usage },
  'empty text': { text: '', usage },
  'length stop': { text: 'This answer was cut at the lim', finish: 'length', usage },
  'usage with cached and reasoning tokens': { reasoning: { text: 'Count.', signature: 'sig-parity-2', encrypted: 'enc-parity-2' }, text: 'Three.', usage: { input: 1000, output: 300, cacheRead: 600, cacheWrite: 100, reasoning: 200 } },
};

const tools = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city', 'units'] } },
  { name: 'get_time', parameters: { type: 'object', properties: {} } },
];

/** Per-answer ids and clocks: each answer mints its own, so the two answers rightly differ in them. */
const minted = new Set(['id', 'created', 'created_at', 'completed_at', 'system_fingerprint']);
/** Fields the SDKs' stream helpers add to the final object (their structured-output parse), never on the wire. */
const sdkAdded = new Set(['parsed_output', 'output_parsed', 'parsed', 'parsed_arguments']);

/**
 * A reasoning signature svc-proxy mints (`svcp1.` + base64url JSON) names the upstream item it
 * came from, whose id each answer mints: compared without that id.
 */
function unminted(signature: string): unknown {
  if (!signature.startsWith('svcp1.')) return signature;
  const { id: _id, ...rest } = JSON.parse(Buffer.from(signature.slice(6), 'base64url').toString('utf8')) as Record<string, unknown>;
  return rest;
}

function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (minted.has(k) || sdkAdded.has(k)) continue;
    out[k] = k === 'signature' && typeof x === 'string' ? unminted(x) : strip(x);
  }
  return out;
}

/** A plain-JSON copy (SDK helpers add non-enumerable or undefined fields the wire never had). */
const plain = (v: unknown): Record<string, unknown> => strip(JSON.parse(JSON.stringify(v))) as Record<string, unknown>;

/**
 * A passthrough stream is relayed as it comes, its `model` as the upstream wrote it, while a whole
 * passthrough answer's is rewritten to the client's `provider/model` (left alone here: listed in
 * the report, as rewriting every chunk is work on the hot path).
 */
function sameModel(o: Record<string, unknown>, model: string): void {
  const slug = model.slice(0, model.indexOf('/') + 1);
  if (typeof o.model === 'string' && !o.model.startsWith(slug)) o.model = slug + o.model;
}

/**
 * The openai SDK's chat stream helper keeps only the last chunk's value of a field it does not
 * know (`reasoning`, `reasoning_content`, `reasoning_details`): those are accumulated here from the
 * chunks as their providers document (strings concatenated, details merged by `index` and `type`).
 */
function reasoningOf(chunks: OpenAI.Chat.ChatCompletionChunk[]): Obj {
  const out: Obj = {};
  // keyed by index and type: a converted OpenAI reasoning item gives a summary and an encrypted entry under one index
  const details = new Map<string, Obj>();
  for (const c of chunks) {
    const delta = (c.choices[0]?.delta ?? {}) as Obj;
    for (const k of ['reasoning', 'reasoning_content'] as const) {
      if (typeof delta[k] === 'string') out[k] = ((out[k] as string | undefined) ?? '') + delta[k];
    }
    if (!Array.isArray(delta.reasoning_details)) continue;
    for (const d of delta.reasoning_details as Obj[]) {
      const key = `${String(d.index)}:${String(d.type)}`;
      const into = details.get(key) ?? {};
      details.set(key, into);
      for (const [k, x] of Object.entries(d)) {
        if (typeof x === 'string' && typeof into[k] === 'string' && (k === 'text' || k === 'summary' || k === 'data')) into[k] = (into[k] as string) + x;
        else into[k] = x;
      }
    }
  }
  if (details.size > 0) out.reasoning_details = [...details.values()];
  return out;
}

async function chatPair(model: string, reasoning: boolean) {
  const body = {
    model,
    messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
    tools: tools.map((f) => ({ type: 'function' as const, function: f })),
    ...(reasoning ? { reasoning_effort: 'high' as const } : {}),
  };
  const whole = plain(await openai().chat.completions.create(body));
  const stream = openai().chat.completions.stream({ ...body, stream_options: { include_usage: true } });
  const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
  stream.on('chunk', (c) => chunks.push(c));
  const streamed = plain(await stream.finalChatCompletion());
  const message = (streamed.choices as Array<{ message: Obj }>)[0]!.message;
  Object.assign(message, strip(reasoningOf(chunks)));
  // the helper leaves `content` null unless a chunk carried non-empty text; the whole answer's '' is the same nothing
  const wholeMessage = (whole.choices as Array<{ message: Obj }>)[0]!.message;
  if (wholeMessage.content === '' && message.content === null) message.content = '';
  sameModel(streamed, model);
  return { whole, streamed };
}

async function responsesPair(model: string, reasoning: boolean) {
  const body = {
    model,
    input: 'Weather in Paris?',
    tools: tools.map((f) => ({ type: 'function' as const, strict: false, ...f })),
    ...(reasoning ? { reasoning: { effort: 'high' as const } } : {}),
  };
  const whole = plain(await openai().responses.create(body));
  const streamed = plain(await openai().responses.stream(body).finalResponse());
  sameModel(streamed, model);
  return { whole, streamed };
}

async function messagesPair(model: string, reasoning: boolean) {
  const body = {
    model,
    max_tokens: 4000,
    messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
    tools: tools.map((f) => ({ name: f.name, input_schema: f.parameters as Anthropic.Tool.InputSchema })),
    ...(reasoning ? { thinking: { type: 'enabled' as const, budget_tokens: 2000 } } : {}),
  };
  const whole = plain(await anthropic().messages.create(body));
  const streamed = plain(await anthropic().messages.stream(body).finalMessage());
  sameModel(streamed, model);
  if (model.startsWith('anthropic/')) {
    // passthrough: the mock's message_start usage is leaner than its whole answer's (no
    // cache_creation), and the SDK copies server_tool_use from message_delta only when non-null
    for (const k of ['cache_creation', 'server_tool_use']) {
      delete (whole.usage as Obj)[k];
      delete (streamed.usage as Obj)[k];
    }
  }
  return { whole, streamed };
}

const CLIENTS = { chat: chatPair, responses: responsesPair, messages: messagesPair } as const;

for (const [client, pair] of Object.entries(CLIENTS)) {
  describe(`${client}: streamed and accumulated equals whole`, () => {
    for (const model of UPSTREAMS) {
      it(model, async () => {
        const mock = mockOf(model);
        for (const [name, turn] of Object.entries(CONTENTS)) {
          mock.next({ kind: 'turn', turn }, { kind: 'turn', turn });
          const { whole, streamed } = await pair(model, turn.reasoning !== undefined);
          expect(streamed, `${client} ← ${model}: ${name}`).toEqual(whole);
        }
      });
    }
  });
}

/**
 * Refusals, which the neutral Turn cannot script: each dialect's own, whole and as its stream.
 * Anthropic: stop_reason `refusal` with stop_details after some text; Responses: a `refusal`
 * content part; Chat: `message.refusal` / `delta.refusal`.
 */
const REFUSAL = ['I can', "'t help ", 'with that 🙅.'];
const refused = REFUSAL.join('');

function anthropicRefusal(): [Reply, Reply] {
  const stopDetails = { type: 'refusal', category: 'cyber', explanation: null };
  const usage = { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 6, service_tier: 'standard' };
  const message = { id: 'msg_r', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', stop_sequence: null, container: null };
  return [
    { kind: 'json', body: { ...message, content: [{ type: 'text', text: refused }], stop_reason: 'refusal', stop_details: stopDetails, usage } },
    {
      kind: 'sse',
      events: [
        named({ type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_details: null, usage: { ...usage, output_tokens: 1 } } }),
        named({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        ...REFUSAL.map((text) => named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
        named({ type: 'content_block_stop', index: 0 }),
        named({ type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null, stop_details: stopDetails }, usage: { output_tokens: 6 } }),
        named({ type: 'message_stop' }),
      ],
    },
  ];
}

function responsesRefusal(): [Reply, Reply] {
  const usage = { input_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 26 };
  const item = { type: 'message', id: 'msg_r', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: refused }] };
  const response = { id: 'resp_r', object: 'response', created_at: 1, status: 'completed', model: 'gpt-5', output: [item], usage };
  const at = { item_id: 'msg_r', output_index: 0, content_index: 0 };
  let seq = 0;
  const ev = (payload: { type: string }) => named({ ...payload, sequence_number: seq++ });
  return [
    { kind: 'json', body: response },
    {
      kind: 'sse',
      events: [
        ev({ type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } } as { type: string }),
        ev({ type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } } as { type: string }),
        ev({ type: 'response.content_part.added', ...at, part: { type: 'refusal', refusal: '' } } as { type: string }),
        ...REFUSAL.map((delta) => ev({ type: 'response.refusal.delta', ...at, delta } as { type: string })),
        ev({ type: 'response.refusal.done', ...at, refusal: refused } as { type: string }),
        ev({ type: 'response.content_part.done', ...at, part: { type: 'refusal', refusal: refused } } as { type: string }),
        ev({ type: 'response.output_item.done', output_index: 0, item } as { type: string }),
        ev({ type: 'response.completed', response } as { type: string }),
      ],
    },
  ];
}

function chatRefusal(model: string): [Reply, Reply] {
  const base = { id: 'chatcmpl-r', created: 1, model };
  const usage = { prompt_tokens: 20, completion_tokens: 6, total_tokens: 26 };
  const chunk = (delta: Obj, finish: string | null = null) => unnamed({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  return [
    { kind: 'json', body: { ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: refused }, logprobs: null, finish_reason: 'stop' }], usage } },
    {
      kind: 'sse',
      events: [
        chunk({ role: 'assistant', content: null, refusal: '' }),
        ...REFUSAL.map((refusal) => chunk({ refusal })),
        chunk({}, 'stop'),
        unnamed({ ...base, object: 'chat.completion.chunk', choices: [], usage }),
        unnamed('[DONE]'),
      ],
    },
  ];
}

const REFUSERS: Array<[string, () => [Reply, Reply]]> = [
  ['anthropic/claude-sonnet-4-5', anthropicRefusal],
  ['openai/gpt-5', responsesRefusal],
  ['openrouter/openai/gpt-4o', () => chatRefusal('openai/gpt-4o')],
  ['ca/some-model', () => chatRefusal('some-model')],
];

describe('a refusal, streamed and accumulated, equals the whole one', () => {
  for (const [client, pair] of Object.entries(CLIENTS)) {
    it(client, async () => {
      for (const [model, replies] of REFUSERS) {
        mockOf(model).next(...replies());
        const { whole, streamed } = await pair(model, false);
        expect(streamed, `${client} ← ${model}: refusal`).toEqual(whole);
      }
    });
  }
});
