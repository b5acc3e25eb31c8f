/**
 * The official `openai` client through protocol A against every provider kind: chat create and
 * stream with tools, responses create and stream, models list, transcriptions. Each test checks
 * what the client got AND what the mock upstream received.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  assembleChatToolCalls, chatStreamText, chatWeatherTool, collect, errorCode, expectNoServiceKey, rejection,
  responsesWeatherTool, UPSTREAM_DIALECT, upstreamToolNames,
} from '../fixtures/e2e-helpers.js';
import { parseEntries } from '../fixtures/daemon.js';
import { multipartOf } from '../fixtures/mock-upstream/index.js';
import { KINDS, MODELS, SLUGS, startWorld, upstreamId, type World } from '../fixtures/world.js';

let world: World;
let client: OpenAI;

beforeAll(async () => {
  world = await startWorld();
  client = world.daemon.openai();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

describe.each(KINDS)('openai client → %s', (kind) => {
  const model = MODELS[kind];

  it('chat.completions.create with tools returns the tool call; upstream got its own dialect', async () => {
    const res = await client.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [chatWeatherTool],
    });
    const choice = res.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall | undefined;
    expect(call?.function.name).toBe('get_weather');
    expect(JSON.parse(call!.function.arguments)).toEqual({ city: 'Paris' });
    // Converted answers get chatcmpl- ids; Chat upstreams pass theirs through (OpenRouter gen-…).
    if (UPSTREAM_DIALECT[kind] !== 'chat') expect(res.id).toMatch(/^chatcmpl-/);
    expect(res.usage?.prompt_tokens).toBeGreaterThan(0);

    const rec = world.mock(kind).lastGeneration();
    expect(rec.body.model).toBe(upstreamId(model));
    expect(upstreamToolNames(rec)).toEqual(['get_weather']);
    expect(rec.body.stream ?? false).toBe(false);
    expectNoServiceKey(rec, world.daemon.key);
    const dialect = UPSTREAM_DIALECT[kind];
    if (dialect === 'messages') {
      expect(rec.body.system === 'You are terse.' || JSON.stringify(rec.body.system).includes('You are terse.')).toBe(true);
      expect(rec.body.max_tokens).toBeGreaterThan(0);
    } else if (dialect === 'responses') {
      const sys = JSON.stringify([rec.body.instructions, rec.body.input]);
      expect(sys).toContain('You are terse.');
      expect(rec.body.tools[0]).toMatchObject({ type: 'function', name: 'get_weather' });
    } else {
      expect(rec.body.messages.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    }
  });

  it('chat.completions stream with tools: role first, arguments on index 0, usage chunk, upstream streamed', async () => {
    const stream = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [chatWeatherTool],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = await collect(stream);
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const calls = assembleChatToolCalls(chunks);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ index: 0, name: 'get_weather' });
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: 'Paris' });
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'tool_calls')).toBe(true);
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(last.usage?.completion_tokens).toBeGreaterThan(0);

    const rec = world.mock(kind).lastGeneration();
    expect(rec.body.stream).toBe(true);
    expect(rec.body.model).toBe(upstreamId(model));
    if (UPSTREAM_DIALECT[kind] === 'chat') expect(rec.body.stream_options).toMatchObject({ include_usage: true });
  });

  it('chat.completions stream of text arrives whole', async () => {
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hi to Zoë 🙂' }], stream: true });
    const chunks = await collect(stream);
    expect(chatStreamText(chunks)).toBe('Echo: Say hi to Zoë 🙂');
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
  });

  it('responses.create answers text with resp_ id and usage', async () => {
    const res = await client.responses.create({ model, input: 'Hello there', instructions: 'Be brief.' });
    expect(res.id).toMatch(/^resp_/);
    expect(res.status).toBe('completed');
    expect(res.output_text).toBe('Echo: Hello there');
    expect(res.usage?.input_tokens).toBeGreaterThan(0);
    const rec = world.mock(kind).lastGeneration();
    expect(rec.body.model).toBe(upstreamId(model));
    expect(JSON.stringify(rec.body)).toContain('Be brief.');
    expectNoServiceKey(rec, world.daemon.key);
  });

  it('responses.stream with tools: full event sequence ending in response.completed with the function call', async () => {
    const stream = client.responses.stream({ model, input: 'Weather in Paris?', tools: [responsesWeatherTool] });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_item.added');
    expect(types).toContain('response.function_call_arguments.delta');
    expect(types).toContain('response.output_item.done');
    expect(types[types.length - 1]).toBe('response.completed');
    const fc = final.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall | undefined;
    expect(fc?.name).toBe('get_weather');
    expect(JSON.parse(fc!.arguments)).toEqual({ city: 'Paris' });
    const rec = world.mock(kind).lastGeneration();
    expect(rec.body.stream).toBe(true);
    expect(upstreamToolNames(rec)).toEqual(['get_weather']);
  });
});

/** Text blocks the Messages upstream got that hold only whitespace (Anthropic refuses them). */
function blankTextBlocks(body: { system?: unknown; messages: Array<{ content: unknown }> }): unknown[] {
  const blocks = [...(Array.isArray(body.system) ? body.system : []), ...body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))];
  return blocks.filter((b) => (b as { type?: string }).type === 'text' && String((b as { text?: unknown }).text).trim() === '');
}

/** An MCP-style tool: exactly one of two ways to name a project, as zod unions serialise. */
const PROJECT_UNION = {
  oneOf: [
    { type: 'object', properties: { id: { type: 'string' }, ref: { type: 'string' } }, required: ['id'] },
    { type: 'object', properties: { full_path: { type: 'string' }, ref: { type: 'string' } }, required: ['full_path'] },
  ],
};

describe.each(['anthropic', 'customB'] as const)('openai client → %s (Messages upstream): what other models and MCP servers wrote', (kind) => {
  const model = MODELS[kind];

  it('a history with whitespace-only text beside tool calls, as a turn and as a system part is accepted', async () => {
    const res = await client.chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: ' \n' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: '\n\n', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
        { role: 'assistant', content: ' ' },
        { role: 'user', content: [{ type: 'text', text: ' ' }, { type: 'text', text: 'Thanks' }] },
      ],
      tools: [chatWeatherTool],
    });
    expect(res.choices[0]!.message.content).toContain('Tool said: sunny');
    const body = world.mock(kind).lastGeneration().body;
    expect(blankTextBlocks(body)).toEqual([]);
    expect(body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(body.system)).toContain('You are terse.');
  });

  it('a tool whose parameters have a root oneOf is accepted through chat and responses, its properties kept', async () => {
    const chat = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Open the project' }],
      tools: [{ type: 'function', function: { name: 'get_project', description: 'A project by id or path', parameters: PROJECT_UNION } }],
    });
    expect(chat.choices[0]!.finish_reason).toBe('tool_calls');
    const sent = world.mock(kind).lastGeneration().body.tools[0].input_schema;
    expect(sent.type).toBe('object');
    expect(sent.oneOf ?? sent.anyOf ?? sent.allOf).toBeUndefined();
    expect(Object.keys(sent.properties).sort()).toEqual(['full_path', 'id', 'ref']);

    const res = await client.responses.create({
      model,
      input: 'Open the project',
      tools: [{ type: 'function', name: 'get_project', parameters: PROJECT_UNION, strict: false }],
    });
    expect(res.output.some((o) => o.type === 'function_call' && o.name === 'get_project')).toBe(true);
  });
});

describe('openai client: stop on models that cannot take it', () => {
  const text = 'One, two. END three, four, five, six, seven, eight.';

  it('openai/… (Responses has no stop): the answer is cut at it, whole and streamed, and the stream’s upstream request dropped', async () => {
    world.mocks.openai.next({ kind: 'turn', turn: { text } });
    const whole = await client.chat.completions.create({ model: MODELS.openai, messages: [{ role: 'user', content: 'Count.' }], stop: ['END'] });
    expect(whole.choices[0]!.message.content).toBe('One, two. ');
    expect(whole.choices[0]!.finish_reason).toBe('stop');

    world.mocks.openai.next({ kind: 'turn', turn: { text, stream: { chunk: 1, delayMs: 3 } } });
    const chunks = await collect(
      await client.chat.completions.create({ model: MODELS.openai, messages: [{ role: 'user', content: 'Count.' }], stop: 'END', stream: true, stream_options: { include_usage: true } }),
    );
    expect(chatStreamText(chunks)).toBe('One, two. ');
    expect(chunks.some((c) => c.choices[0]?.finish_reason === 'stop')).toBe(true);
    // the upstream reports no usage for a cut stream: estimated by the daemon's tokenizer
    const usage = chunks.at(-1)!.usage!;
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    const up = world.mocks.openai.lastGeneration();
    expect(up.body).not.toHaveProperty('stop');
    await up.done;
    expect(up.closedEarly).toBe(true);
  });
});

describe('openai client: models and transcriptions', () => {
  it('models.list shows every connected provider kind, prefixed, Gemini without models/', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    for (const kind of KINDS) expect(ids, `models of ${kind}`).toContain(MODELS[kind]);
    expect(ids).toContain('gemini/gemini-3-pro-preview');
    expect(ids.some((id) => id.includes('models/'))).toBe(false);
    expect(ids).toContain('openrouter/meta-llama/llama-4-maverick');
    expect(ids).toContain(`${SLUGS.customB}/kimi-k2`);
  });

  it('models.retrieve answers the list\'s entry for an id with slashes (sent as %2F); an unknown one is 404 model_not_found', async () => {
    const listed: OpenAI.Models.Model[] = [];
    for await (const m of client.models.list()) listed.push(m);
    for (const id of [MODELS.openrouter, MODELS.openai, MODELS.gemini, MODELS.customA, MODELS.local]) {
      expect({ ...(await client.models.retrieve(id)) }, id).toEqual(listed.find((m) => m.id === id));
    }
    const e = await rejection(client.models.retrieve('openai/gpt-none'));
    expect(e.status).toBe(404);
    expect(errorCode(e)).toBe('model_not_found');
    // OpenAI's list has no paging: a query changes nothing
    const all = await client.models.list({ query: { limit: 1 } });
    expect(all.data.map((m) => m.id)).toEqual(listed.map((m) => m.id));
  });

  it('`svc-proxy models` lists the same ids, sorted, filtered by provider; a provider that refuses its key is named with the reason', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    // OpenRouter's list refuses the key from now on (a revoked or mistyped one)
    world.mocks.openrouter.always((r) => r.method === 'GET' && r.path.endsWith('/models'), { kind: 'json', status: 401, body: { error: { message: 'No auth credentials found', code: 401 } } });
    const all = JSON.parse((await world.daemon.cli(['models', '--json'])).stdout) as { models: Array<{ id: string; provider: string }>; failed: Record<string, { code: string; reason: string }> };
    const listed = all.models.map((m) => m.id);
    expect(listed).toEqual([...listed].sort((a, b) => a.localeCompare(b)));
    expect(new Set(listed)).toEqual(new Set(ids.filter((id) => !id.startsWith('openrouter/'))));
    expect(all.failed).toEqual({ openrouter: { code: 'upstream_auth_failed', reason: 'the provider refused the credential (401)' } });

    const text = await world.daemon.cli(['models', 'openai', 'openrouter']);
    expect(text.stdout).toMatch(/^MODEL +NAME +CONTEXT\n/);
    expect(text.stdout).toContain('openai/gpt-5.4');
    expect(text.stdout).not.toContain('anthropic/');
    expect(text.stdout).toMatch(/\d+ models? from 1 provider; 1 could not be listed \(below\)\.\n$/);
    expect(text.stderr).toContain('openrouter: no model list: upstream_auth_failed: the provider refused the credential (401). Store a working key: svc-proxy provider connect openrouter');

    // the window a provider's list states (Anthropic's max_input_tokens), in the table and the JSON
    expect(all.models.find((m) => m.id === 'anthropic/claude-sonnet-4-5')).toMatchObject({ contextWindow: 200_000 });
    // OpenAI's: the input its model pages (or gateway pages that agree) document, window less max output
    expect(all.models.find((m) => m.id === 'openai/gpt-5.4')).toMatchObject({ contextWindow: 922_000 });
    expect(all.models.find((m) => m.id === 'openai/gpt-5-mini')).toMatchObject({ contextWindow: 272_000 });
    expect(text.stdout).toMatch(/^openai\/gpt-5-mini +272,000$/m);
    expect((await world.daemon.cli(['models', 'anthropic'])).stdout).toMatch(/^anthropic\/claude-sonnet-4-5 +claude sonnet 4 5 +200,000$/m);

    // an endpoint whose key is refused: `provider connect` cannot replace it (it is no provider), adding it again does
    await world.daemon.cli(['endpoint', 'add', 'wrongkey', '--url', world.mocks.customA.baseUrl, '--format', 'a', '--insecure-storage'], { input: 'not-the-endpoint-key\n' });
    try {
      const endpoint = await world.daemon.cli(['models', 'wrongkey'], { allowFail: true });
      expect(endpoint.stderr).toContain('wrongkey: no model list: upstream_auth_failed: the provider refused the credential (401). Store a working key: svc-proxy endpoint remove wrongkey, then endpoint add wrongkey with a working key.');
      expect(endpoint.stderr).not.toContain('provider connect');
    } finally {
      await world.daemon.cli(['endpoint', 'remove', 'wrongkey']);
    }

    const onlyFailed = await world.daemon.cli(['models', 'openrouter'], { allowFail: true });
    expect(onlyFailed.code).toBe(1);
    const unknown = await world.daemon.cli(['models', 'nope'], { allowFail: true });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No connected provider, endpoint or local server named nope');
    // with --json, the error is the one object on stdout (not the empty list, then the error)
    const unknownJson = await world.daemon.cli(['models', 'openai', 'nope', '--json'], { allowFail: true });
    expect(unknownJson.code).toBe(1);
    expect(JSON.parse(unknownJson.stdout)).toEqual({ error: { code: 'unknown_provider', message: expect.stringContaining('named nope'), unknown: ['nope'] } });
  });

  it('audio.transcriptions to a custom endpoint (format a): multipart forwarded, model rewritten', async () => {
    const res = await client.audio.transcriptions.create({
      file: await toFile(Buffer.from('RIFF....WAVEfmt fake audio'), 'clip.wav', { type: 'audio/wav' }),
      model: `${SLUGS.customA}/whisper-large-v3`,
      language: 'en',
    });
    expect(res.text).toBe('transcribed clip.wav (26 bytes) with whisper-large-v3');
    const rec = world.mocks.customA.requests.find((r) => r.path === '/v1/audio/transcriptions')!;
    expect(rec).toBeDefined();
    const parts = multipartOf(rec);
    expect(parts.find((p) => p.name === 'model')?.data.toString()).toBe('whisper-large-v3');
    expect(parts.find((p) => p.name === 'language')?.data.toString()).toBe('en');
    expect(rec.headers.authorization).toBe(`Bearer ${world.mocks.customA.opts.apiKey}`);
  });

  it('audio.transcriptions to a provider that has none → 400 unsupported_modality, nothing sent', async () => {
    const e = await rejection(
      client.audio.transcriptions.create({ file: await toFile(Buffer.from('x'), 'a.wav'), model: MODELS.anthropic }),
    );
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('unsupported_modality');
    expect(world.mocks.anthropic.requests).toHaveLength(0);
  });
});

describe('previous_response_id: svc-proxy resolves the answers it keeps, OpenAI its own', () => {
  // `store` is on the wire; the SDK's Response type leaves it out
  const storeOf = (r: object) => (r as { store?: boolean }).store;
  const conversationOf = (body: Record<string, unknown>) =>
    (body.messages as Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>).map((m) => `${m.role}:${typeof m.content === 'string' ? 'text' : m.content.map((b) => b.type).join('+')}`);

  it('a chain on Claude, whole and streamed, then on Gemini and on OpenAI: each request carries the whole conversation; thinking and tool calls keep their proof', async () => {
    const ask = { model: MODELS.anthropic, instructions: 'Be terse.', reasoning: { effort: 'medium' as const }, tools: [responsesWeatherTool] };
    const first = await client.responses.create({ ...ask, input: 'Weather in Paris?' });
    const call = first.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(first.output.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    // only the tool's output and the previous answer's id: the daemon adds the rest
    const second = await client.responses.create({ ...ask, instructions: undefined, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21°C' }] });
    expect(second.output_text).toBe('Tool said: Sunny, 21°C');
    expect([storeOf(first), storeOf(second), second.previous_response_id]).toEqual([true, true, first.id]);
    const sent = world.mocks.anthropic.lastGeneration().body as Record<string, unknown>;
    // the thinking block came back with its signature (the mock refuses a tool turn without it)
    expect(conversationOf(sent)).toEqual(['user:text', 'assistant:thinking+tool_use', 'user:tool_result']);
    expect(sent.system, 'instructions are not carried over, as on OpenAI').toBeUndefined();
    expect(sent).not.toHaveProperty('previous_response_id');

    // (without tools in these requests the earlier calls stand beside a placeholder tool, which the
    // mocks' default answer would call: the answers are scripted)
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Echo: Thanks. And tomorrow?' } });
    world.mocks.gemini.next({ kind: 'turn', turn: { text: 'Echo: Once more?' } });
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'Echo: Last one.' } });
    const stream = client.responses.stream({ model: MODELS.anthropic, previous_response_id: second.id, input: 'Thanks. And tomorrow?' });
    const third = await stream.finalResponse();
    expect([storeOf(third), third.previous_response_id]).toEqual([true, second.id]);
    expect(third.output_text).toBe('Echo: Thanks. And tomorrow?');
    expect(conversationOf(world.mocks.anthropic.lastGeneration().body as Record<string, unknown>)).toEqual(['user:text', 'assistant:thinking+tool_use', 'user:tool_result', 'assistant:thinking+text', 'user:text']);

    // another provider goes on from the streamed answer, then OpenAI from Gemini's
    const onGemini = await client.responses.create({ model: MODELS.gemini, previous_response_id: third.id, input: 'Once more?' });
    expect(onGemini.output_text).toBe('Echo: Once more?');
    const geminiSaw = (world.mocks.gemini.lastGeneration().body.messages as Array<{ role: string }>).map((m) => m.role);
    expect(geminiSaw).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user']);
    const onOpenAI = await client.responses.create({ model: MODELS.openai, previous_response_id: onGemini.id, input: 'Last one.' });
    expect(onOpenAI.output_text).toBe('Echo: Last one.');
    const openaiSaw = world.mocks.openai.lastGeneration().body as { input: Array<{ type?: string; role?: string }>; previous_response_id?: string };
    expect(openaiSaw.previous_response_id).toBeUndefined();
    expect(openaiSaw.input.filter((i) => i.role === 'user' || i.type === 'function_call_output')).toHaveLength(5);
  });

  it('an upstream that reuses its answer ids (Ollama numbers them 0–998) does not mix two conversations', async () => {
    const ollama = (text: string) => ({
      kind: 'json' as const,
      body: { id: 'chatcmpl-7', object: 'chat.completion', created: 1, model: 'llama3.1:8b', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] },
    });
    world.mocks.local.next(ollama('About A.'));
    const a = await client.responses.create({ model: MODELS.local, input: 'Conversation A' });
    world.mocks.local.next(ollama('About B.'), ollama('A again.'));
    const b = await client.responses.create({ model: MODELS.local, input: 'Conversation B' });
    expect(a.id).toBe('resp_7');
    expect(b.id).not.toBe(a.id);
    expect(b.output[0]!.id).not.toBe(a.output[0]!.id);
    await client.responses.create({ model: MODELS.local, previous_response_id: a.id, input: 'Go on with A' });
    const sent = world.mocks.local.lastGeneration().body.messages as Array<{ content: string }>;
    expect(sent.map((m) => m.content)).toEqual(['Conversation A', 'About A.', 'Go on with A']);
    expect((await client.responses.retrieve(b.id)).output_text).toBe('About B.');
  });

  it('kept answers are each service key’s own: another key naming one gets 400 previous_response_not_found', async () => {
    const mine = await client.responses.create({ model: MODELS.anthropic, input: 'My secret plan.' });
    const created = JSON.parse((await world.daemon.cli(['key', 'create', '--name', 'other-tool', '--json'])).stdout) as { key: string };
    const other = new OpenAI({ baseURL: world.daemon.baseA(), apiKey: created.key, maxRetries: 0 });
    const err = await rejection(other.responses.create({ model: MODELS.anthropic, previous_response_id: mine.id, input: 'What was it?' }));
    expect(err).toMatchObject({ status: 400 });
    expect(errorCode(err)).toBe('previous_response_not_found');
    expect(world.mocks.anthropic.generations()).toHaveLength(1);
    // the key that made it goes on
    const next = await client.responses.create({ model: MODELS.anthropic, previous_response_id: mine.id, input: 'What was it?' });
    expect(next.previous_response_id).toBe(mine.id);
  });

  it('store: false keeps nothing: naming that answer is 400 previous_response_not_found off openai/…', async () => {
    const unkept = await client.responses.create({ model: MODELS.anthropic, input: 'Hi', store: false });
    expect(storeOf(unkept)).toBe(false);
    const err = await rejection(client.responses.create({ model: MODELS.anthropic, previous_response_id: unkept.id, input: 'Again' }));
    expect(err).toMatchObject({ status: 400 });
    expect(errorCode(err)).toBe('previous_response_not_found');
    expect(world.mocks.anthropic.generations()).toHaveLength(1);
  });

  it('on openai/…: the function output goes with only the previous response’s id, and OpenAI answers from the chain', async () => {
    const first = await client.responses.create({ model: MODELS.openai, input: 'Weather in Paris?', tools: [responsesWeatherTool] });
    const call = first.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call.name).toBe('get_weather');
    const next = await client.responses.create({
      model: MODELS.openai,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21°C' }],
      tools: [responsesWeatherTool],
    });
    expect(next.output_text).toBe('Tool said: Sunny, 21°C');
    expect(next.previous_response_id).toBe(first.id);
    expect(world.mocks.openai.lastGeneration().body.previous_response_id).toBe(first.id);
    // and streamed, one more turn down the chain
    const stream = client.responses.stream({ model: MODELS.openai, previous_response_id: next.id, input: 'Thanks. And tomorrow?' });
    expect((await stream.finalResponse()).output_text).toBe('Echo: Thanks. And tomorrow?');
  });

  it('a response kept with store: false cannot be named (OpenAI’s 400 reaches the client); a non-OpenAI model asks OpenAI, and refuses it before anything is sent', async () => {
    const unstored = await client.responses.create({ model: MODELS.openai, input: 'Hi', store: false });
    const err = await rejection(client.responses.create({ model: MODELS.openai, previous_response_id: unstored.id, input: 'Again' }));
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toContain(`Previous response with id '${unstored.id}' not found.`);
    const before = world.mocks.anthropic.generations().length;
    const refused = await rejection(client.responses.create({ model: MODELS.anthropic, previous_response_id: unstored.id, input: 'Again' }));
    expect(refused).toMatchObject({ status: 400 });
    expect(errorCode(refused)).toBe('previous_response_not_found');
    expect(refused.message).toContain(`previous_response_id names a response neither svc-proxy nor OpenAI keeps: openai: Response with id '${unstored.id}' not found.`);
    expect(world.mocks.anthropic.generations()).toHaveLength(before);
  });

  it('a conversation begun on OpenAI goes on on Claude: its items are read from OpenAI, page by page, and the answer is kept for the next turn', async () => {
    world.mocks.openai.pageCap = 2;
    const first = await client.responses.create({ model: MODELS.openai, input: 'Weather in Paris?', tools: [responsesWeatherTool] });
    const call = first.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await client.responses.create({ model: MODELS.openai, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21°C' }], tools: [responsesWeatherTool] });
    expect(second.output_text).toBe('Tool said: Sunny, 21°C');

    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Echo: And tomorrow?' } });
    const onClaude = await client.responses.create({ model: MODELS.anthropic, previous_response_id: second.id, input: 'And tomorrow?', tools: [responsesWeatherTool] });
    expect(onClaude.output_text).toBe('Echo: And tomorrow?');
    expect(onClaude.previous_response_id).toBe(second.id);
    const sent = world.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string; content?: unknown }> }> };
    expect(sent.messages.map((m) => `${m.role}:${m.content.map((b) => b.type).join('+')}`)).toEqual(['user:text', 'assistant:tool_use', 'user:tool_result', 'assistant:text', 'user:text']);
    expect(JSON.stringify(sent.messages)).toContain('Sunny, 21°C');
    expect(sent).not.toHaveProperty('previous_response_id');
    // four input items (the question, OpenAI's reasoning and call, the call's output) in pages of
    // two, oldest first, with reasoning's encrypted content asked for; Claude takes no OpenAI reasoning
    const asked = 'order=asc&limit=100&include%5B%5D=reasoning.encrypted_content';
    expect(first.output.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(world.mocks.openai.listed).toEqual([asked, `${asked}&after=${first.output[0]!.id}`]);
    const reads = world.mocks.openai.requests.filter((r) => r.method === 'GET');
    for (const r of reads) expectNoServiceKey(r, world.daemon.key);

    // the next turn on Claude goes on from the kept answer, OpenAI not asked again
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Echo: Thanks.' } });
    const readsBefore = reads.length;
    const next = await client.responses.create({ model: MODELS.anthropic, previous_response_id: onClaude.id, input: 'Thanks.' });
    expect(next.output_text).toBe('Echo: Thanks.');
    const again = world.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string }> };
    expect(again.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(world.mocks.openai.requests.filter((r) => r.method === 'GET')).toHaveLength(readsBefore);
  });
});

describe('stored responses: retrieve, input items, delete, cancel — kept answers here, OpenAI’s own at OpenAI', () => {
  it('an answer on Claude: retrieved as it was given, its chain’s input items paged, cancel refused, then deleted', async () => {
    const first = await client.responses.create({ model: MODELS.anthropic, input: 'Weather in Paris?', tools: [responsesWeatherTool] });
    const call = first.output.find((i) => i.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await client.responses.create({ model: MODELS.anthropic, previous_response_id: first.id, input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny' }], tools: [responsesWeatherTool] });
    const before = world.mocks.anthropic.requests.length;

    const again = await client.responses.retrieve(second.id);
    expect(again).toEqual(second);
    expect(again.output_text).toBe('Tool said: Sunny');

    // the SDK follows the cursor itself: page by page, newest first
    const listed: OpenAI.Responses.ResponseItem[] = [];
    for await (const item of client.responses.inputItems.list(second.id, { limit: 2 })) listed.push(item);
    const types = listed.map((i) => i.type);
    expect(types).toEqual(['function_call_output', 'function_call', 'message']);
    expect(listed[1]).toMatchObject({ id: call.id, call_id: call.call_id, name: 'get_weather' });
    expect(listed[2]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] });
    expect(new Set(listed.map((i) => i.id)).size).toBe(3);
    const asc = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(asc.data.map((i) => i.id)).toEqual(listed.map((i) => i.id).reverse());

    const cancel = await rejection(client.responses.cancel(second.id));
    expect(cancel).toMatchObject({ status: 400 });
    expect(errorCode(cancel)).toBe('response_not_cancellable');

    await client.responses.delete(first.id);
    const gone = await rejection(client.responses.retrieve(first.id));
    expect(gone).toMatchObject({ status: 404 });
    expect(errorCode(gone)).toBe('response_not_found');
    // what went on from it has lost its chain; it is still there itself
    expect(errorCode(await rejection(client.responses.create({ model: MODELS.anthropic, previous_response_id: second.id, input: 'More?' })))).toBe('previous_response_not_found');
    expect((await client.responses.retrieve(second.id)).id).toBe(second.id);
    // none of it reached Claude
    expect(world.mocks.anthropic.requests).toHaveLength(before);
    // and the log has each call
    const entries = parseEntries((await world.daemon.cli(['logs', '--json', '--limit', '12'])).stdout);
    const calls = entries.filter((e) => e.endpoint.startsWith('stored_response.')).map((e) => `${e.endpoint.slice('stored_response.'.length)} ${e.status}`);
    expect(calls.slice(-8)).toEqual(['retrieve 200', 'input_items 200', 'input_items 200', 'input_items 200', 'cancel 400', 'delete 200', 'retrieve 404', 'retrieve 200']);
  });

  it('an answer on Claude states the request it answered, as OpenAI’s do: whole, streamed and retrieved', async () => {
    const asked = {
      model: MODELS.anthropic,
      instructions: 'Answer in one line.',
      input: 'Weather in Paris?',
      tools: [responsesWeatherTool],
      tool_choice: 'auto' as const,
      parallel_tool_calls: false,
      temperature: 0.2,
      max_output_tokens: 300,
      metadata: { ticket: 'T-42' },
      text: { verbosity: 'low' as const },
      prompt_cache_key: 'session-9',
    };
    const stated = {
      instructions: asked.instructions,
      tools: asked.tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
      temperature: 0.2,
      max_output_tokens: 300,
      metadata: { ticket: 'T-42' },
      text: { format: { type: 'text' }, verbosity: 'low' },
      prompt_cache_key: 'session-9',
    };
    const whole = await client.responses.create(asked);
    expect(whole).toMatchObject(stated);
    expect(await client.responses.retrieve(whole.id)).toMatchObject(stated);

    const stream = client.responses.stream(asked);
    const created: OpenAI.Responses.Response[] = [];
    stream.on('response.created', (event) => created.push(event.response));
    const final = await stream.finalResponse();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject(stated);
    expect(final).toMatchObject(stated);
    expect(await client.responses.retrieve(final.id)).toMatchObject(stated);

    // what was not asked keeps OpenAI's defaults
    const plain = await client.responses.create({ model: MODELS.anthropic, input: 'Hello' });
    expect(plain).toMatchObject({ instructions: null, tools: [], temperature: null, metadata: {}, parallel_tool_calls: true });
  });

  it('responses.inputTokens.count on any model: a kept chain is counted whole; an id only OpenAI keeps goes to OpenAI’s count, and elsewhere is refused', async () => {
    const first = await client.responses.create({ model: MODELS.anthropic, input: 'Weather in Paris?', instructions: 'Be terse.' });
    const before = world.mocks.anthropic.generations().length;
    const alone = await client.responses.inputTokens.count({ model: MODELS.anthropic, input: 'And tomorrow?' });
    const chained = await client.responses.inputTokens.count({ model: MODELS.anthropic, input: 'And tomorrow?', previous_response_id: first.id });
    expect(alone).toMatchObject({ object: 'response.input_tokens' });
    expect(chained.input_tokens).toBeGreaterThan(alone.input_tokens);
    const counted = world.mocks.anthropic.requests.filter((r) => r.path === '/v1/messages/count_tokens').at(-1)!.body as { messages: Array<{ role: string }> };
    expect(counted.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // counting generates nothing and keeps nothing
    expect(world.mocks.anthropic.generations()).toHaveLength(before);

    const onGpt = await client.responses.create({ model: MODELS.openai, input: 'Hello there' });
    const gpt = await client.responses.inputTokens.count({ model: MODELS.openai, input: 'More?', previous_response_id: onGpt.id });
    expect(gpt.input_tokens).toBeGreaterThan(0);
    const asked = world.mocks.openai.requests.filter((r) => r.path === '/v1/responses/input_tokens').at(-1)!;
    expect(asked.body).toMatchObject({ model: 'gpt-5.4', previous_response_id: onGpt.id });
    expectNoServiceKey(asked, world.daemon.key);
    const elsewhere = await rejection(client.responses.inputTokens.count({ model: MODELS.gemini, input: 'x', conversation: 'conv_1' }));
    expect(elsewhere).toMatchObject({ status: 400 });
    expect(errorCode(elsewhere)).toBe('unsupported_feature');
  });

  it('another key cannot read, list or delete an answer kept for this one', async () => {
    const mine = await client.responses.create({ model: MODELS.anthropic, input: 'My secret plan.' });
    const created = JSON.parse((await world.daemon.cli(['key', 'create', '--name', 'prying-tool', '--json'])).stdout) as { key: string };
    const other = new OpenAI({ baseURL: world.daemon.baseA(), apiKey: created.key, maxRetries: 0 });
    for (const attempt of [() => other.responses.retrieve(mine.id), () => other.responses.inputItems.list(mine.id), () => other.responses.delete(mine.id)]) {
      const e = await rejection(attempt());
      expect(e).toMatchObject({ status: 404 });
      expect(errorCode(e)).toBe('response_not_found');
    }
    expect((await client.responses.retrieve(mine.id)).output_text).toBe(mine.output_text);
  });

  it('an id svc-proxy did not keep goes to OpenAI with the daemon’s credential; OpenAI’s answers and refusals come back', async () => {
    const made = await client.responses.create({ model: MODELS.openai, input: 'Hello there' });
    const again = await client.responses.retrieve(made.id);
    expect(again.id).toBe(made.id);
    expect(again.output_text).toBe(made.output_text);
    const items = await client.responses.inputItems.list(made.id);
    expect(items.data).toMatchObject([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello there' }] }]);
    const cancel = await rejection(client.responses.cancel(made.id));
    expect(cancel).toMatchObject({ status: 400 });
    expect(cancel.message).toContain('Cannot cancel a synchronous response.');
    await client.responses.delete(made.id);
    const gone = await rejection(client.responses.retrieve(made.id));
    expect(gone).toMatchObject({ status: 404 });
    expect(errorCode(gone)).toBe('response_not_found');
    expect(gone.message).toContain(`Response with id '${made.id}' not found`);

    const calls = world.mocks.openai.requests.filter((r) => r.path.startsWith(`/v1/responses/${made.id}`));
    expect(calls.map((r) => `${r.method} ${r.path.slice(`/v1/responses/${made.id}`.length) || '/'}`)).toEqual(['GET /', 'GET /input_items', 'POST /cancel', 'DELETE /', 'GET /']);
    for (const r of calls) {
      expect(r.headers.authorization).toBe(`Bearer ${world.mocks.openai.opts.apiKey}`);
      expectNoServiceKey(r, world.daemon.key);
    }
  });

  it('a streamed answer is read back as its final response; stream=true on it is refused (background responses only); an unknown path under it is a 404', async () => {
    const made = await client.responses.stream({ model: MODELS.anthropic, input: 'Hi', reasoning: { effort: 'low' } }).finalResponse();
    // (less what the SDK's stream helper adds for structured output)
    const wire = (r: object) => JSON.parse(JSON.stringify(r, (k, v: unknown) => (k === 'parsed' || k === 'output_parsed' ? undefined : v))) as unknown;
    expect(wire(await client.responses.retrieve(made.id))).toEqual(wire(made));
    const streamed = await rejection(client.responses.retrieve(made.id, { stream: true }));
    expect(streamed).toMatchObject({ status: 400 });
    expect(errorCode(streamed)).toBe('unsupported_feature');
    const res = await fetch(`${world.daemon.baseA()}/responses/${made.id}/nothing`, { headers: { authorization: `Bearer ${world.daemon.key}` } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('conversations: OpenAI keeps them; svc-proxy forwards the Conversations API, and openai/… models go on with one', () => {
  it('created, gone on with on openai/… (whole and streamed), its items paged and read, updated, an item deleted, deleted', async () => {
    const conv = await client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'My name is Ada.' }], metadata: { topic: 'intro' } });
    expect(conv).toMatchObject({ object: 'conversation', metadata: { topic: 'intro' } });
    expect(conv.id).toMatch(/^conv_/);
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'You are Ada.' } });
    const first = await client.responses.create({ model: MODELS.openai, conversation: conv.id, input: 'What is my name?' });
    expect(first.output_text).toBe('You are Ada.');
    expect(world.mocks.openai.lastGeneration().body.conversation).toBe(conv.id);
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'Bye, Ada.' } });
    const second = await client.responses.stream({ model: MODELS.openai, conversation: { id: conv.id }, input: 'Bye.' }).finalResponse();
    expect(second.output_text).toBe('Bye, Ada.');

    // the SDK follows the cursor: every item, oldest first
    const items: OpenAI.Conversations.ConversationItem[] = [];
    for await (const item of client.conversations.items.list(conv.id, { order: 'asc', limit: 2 })) items.push(item);
    const said = items.map((i) => (i.type === 'message' ? `${i.role}:${(i.content[0] as { text: string }).text}` : i.type));
    expect(said).toEqual(['user:My name is Ada.', 'user:What is my name?', 'assistant:You are Ada.', 'user:Bye.', 'assistant:Bye, Ada.']);
    expect(await client.conversations.items.retrieve(items[0]!.id!, { conversation_id: conv.id })).toMatchObject({ id: items[0]!.id });
    await client.conversations.items.create(conv.id, { items: [{ type: 'message', role: 'user', content: 'A note.' }] });
    await client.conversations.items.delete(items[0]!.id!, { conversation_id: conv.id });
    expect((await client.conversations.items.list(conv.id)).data.map((i) => i.id)).not.toContain(items[0]!.id);
    expect(await client.conversations.update(conv.id, { metadata: { topic: 'names' } })).toMatchObject({ metadata: { topic: 'names' } });
    expect(await client.conversations.delete(conv.id)).toMatchObject({ id: conv.id, deleted: true });
    const gone = await rejection(client.conversations.retrieve(conv.id));
    expect(gone).toMatchObject({ status: 404 });
    expect(gone.message).toContain(`Conversation with id '${conv.id}' not found.`);

    // with the daemon's credential, never the service key
    const calls = world.mocks.openai.requests.filter((r) => r.path.startsWith('/v1/conversations'));
    expect(calls.length).toBeGreaterThan(8);
    for (const r of calls) {
      expect(r.headers.authorization).toBe(`Bearer ${world.mocks.openai.opts.apiKey}`);
      expectNoServiceKey(r, world.daemon.key);
    }
    // the log says what each call did
    const entries = parseEntries((await world.daemon.cli(['logs', '--json', '--limit', '40'])).stdout);
    const logged = entries.filter((e) => e.endpoint.startsWith('conversations')).map((e) => `${e.endpoint} ${e.status}`);
    expect(logged).toEqual([
      'conversations.create 200',
      // five items, two a page
      'conversations.items.list 200',
      'conversations.items.list 200',
      'conversations.items.list 200',
      'conversations.items.retrieve 200',
      'conversations.items.create 200',
      'conversations.items.delete 200',
      'conversations.items.list 200',
      'conversations.update 200',
      'conversations.delete 200',
      'conversations.retrieve 404',
    ]);
  });

  it('another model refuses a conversation before anything is sent; with previous_response_id too, it is refused as OpenAI refuses it', async () => {
    const conv = await client.conversations.create({});
    const elsewhere = await rejection(client.responses.create({ model: MODELS.anthropic, conversation: conv.id, input: 'Hi' }));
    expect(elsewhere).toMatchObject({ status: 400 });
    expect(errorCode(elsewhere)).toBe('unsupported_feature');
    expect(elsewhere.message).toMatch(/only openai\/… models go on with/);
    expect(world.mocks.anthropic.requests).toHaveLength(0);
    const both = await rejection(client.responses.create({ model: MODELS.openai, conversation: conv.id, previous_response_id: 'resp_x', input: 'Hi' }));
    expect(both).toMatchObject({ status: 400 });
    expect(errorCode(both)).toBe('mutually_exclusive_parameters');
    expect(world.mocks.openai.generations()).toHaveLength(0);
  });
});

describe('prompt caching for clients that mark nothing (Cursor, Codex, Zed) on Claude', () => {
  const ask = [{ role: 'system' as const, content: 'You are a coding agent.' }, { role: 'user' as const, content: 'Hi' }];
  const tool: OpenAI.Responses.FunctionTool = { type: 'function', name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false };

  it('chat and responses → anthropic ask for automatic caching; a client that marks its own breakpoints keeps them alone', async () => {
    await client.chat.completions.create({ model: MODELS.anthropic, messages: [...ask, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: 'Go on.' }] });
    expect(world.mocks.anthropic.lastGeneration().body.cache_control).toEqual({ type: 'ephemeral' });
    await client.responses.create({ model: MODELS.anthropic, instructions: 'You are a coding agent.', input: 'Hi', tools: [tool] });
    expect(world.mocks.anthropic.lastGeneration().body.cache_control).toEqual({ type: 'ephemeral' });

    // a one-off prompt (one message, no tools) is not sent again: no cache write to pay for
    await client.chat.completions.create({ model: MODELS.anthropic, messages: ask });
    expect(world.mocks.anthropic.lastGeneration().body).not.toHaveProperty('cache_control');
    await client.responses.create({ model: MODELS.anthropic, instructions: 'You are a coding agent.', input: 'Hi' });
    expect(world.mocks.anthropic.lastGeneration().body).not.toHaveProperty('cache_control');

    // OpenRouter-style hints on a content part (Cline, Roo): the client manages its cache
    const marked = [{ role: 'system', content: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }] }, { role: 'user', content: 'Hi' }];
    await client.chat.completions.create({ model: MODELS.anthropic, messages: marked as unknown as OpenAI.ChatCompletionMessageParam[] });
    const body = world.mocks.anthropic.lastGeneration().body;
    expect(body).not.toHaveProperty('cache_control');
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('a custom Messages endpoint gets no top-level field it may not know', async () => {
    await client.chat.completions.create({ model: MODELS.customB, messages: ask });
    expect(world.mocks.customB.lastGeneration().body).not.toHaveProperty('cache_control');
  });
});

describe('structured output on Claude: a schema Anthropic would narrow is asked for in words, not bent', () => {
  const map = { type: 'object', properties: { scores: { type: 'object', additionalProperties: { type: 'number' } } }, required: ['scores'] };
  const closed = { type: 'object', properties: { total: { type: 'number' } }, required: ['total'], additionalProperties: false };
  const answer = '{"scores":{"ann":3,"bob":5}}';

  it('chat response_format and responses text.format with a map: no output_config.format, the schema in the system prompt, the map comes back', async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { text: answer } }, { kind: 'turn', turn: { text: answer } });
    const chat = await client.chat.completions.create({
      model: MODELS.anthropic,
      messages: [{ role: 'user', content: 'Score the players.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'scores', strict: false, schema: map } },
    });
    expect(JSON.parse(chat.choices[0]!.message.content!)).toEqual({ scores: { ann: 3, bob: 5 } });
    let body = world.mocks.anthropic.lastGeneration().body;
    expect(body.output_config?.format).toBeUndefined();
    expect(JSON.stringify(body.system)).toContain(JSON.stringify(JSON.stringify(map)).slice(1, -1));

    const res = await client.responses.create({
      model: MODELS.anthropic,
      input: 'Score the players.',
      text: { format: { type: 'json_schema', name: 'scores', strict: false, schema: map } },
    });
    expect(JSON.parse(res.output_text)).toEqual({ scores: { ann: 3, bob: 5 } });
    body = world.mocks.anthropic.lastGeneration().body;
    expect(body.output_config?.format).toBeUndefined();
    expect(JSON.stringify(body.system)).toContain('matches the JSON schema \\"scores\\"');
  });

  it('a schema Anthropic can express still goes to constrained decoding', async () => {
    await client.chat.completions.create({
      model: MODELS.anthropic,
      messages: [{ role: 'user', content: 'Total?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'total', strict: true, schema: closed } },
    });
    const body = world.mocks.anthropic.lastGeneration().body;
    expect(body.output_config?.format).toEqual({ type: 'json_schema', schema: closed });
    expect(JSON.stringify(body.system ?? '')).not.toContain('JSON schema');
  });
});

describe('input_file to Chat-speaking models: no OpenAI file id, a URL only where the provider fetches it', () => {
  const ask = (part: OpenAI.Responses.ResponseInputFile) => [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: 'Summarise it.' }, part] }];

  it.each(['gemini', 'openrouter', 'customA', 'local'] as const)('%s: an OpenAI file id is refused with 400 unsupported_content before anything is sent', async (kind) => {
    const before = world.mock(kind).requests.length;
    const err = await rejection(client.responses.create({ model: MODELS[kind], input: ask({ type: 'input_file', file_id: 'file-AbC123' }) }));
    expect(err).toMatchObject({ status: 400 });
    expect(errorCode(err)).toBe('unsupported_content');
    expect((err as Error).message).toContain('OpenAI file id (file-AbC123)');
    expect(world.mock(kind).requests).toHaveLength(before);
  });

  it('a file_url: refused for Gemini (file_data is the data), sent to OpenRouter, which fetches it, named from the URL', async () => {
    const part = { type: 'input_file' as const, file_url: 'https://example.com/papers/paper.pdf' };
    const err = await rejection(client.responses.create({ model: MODELS.gemini, input: ask(part) }));
    expect(errorCode(err)).toBe('unsupported_content');
    expect((err as Error).message).toContain("send the file's data");

    await client.responses.create({ model: MODELS.openrouter, input: ask(part) });
    const content = world.mocks.openrouter.lastGeneration().body.messages[0].content;
    expect(content[1]).toEqual({ type: 'file', file: { file_data: 'https://example.com/papers/paper.pdf', filename: 'paper.pdf' } });
  });
});

describe('web_search_options from a Chat client: a model that searches does so with its own tool', () => {
  const title = 'First page about Search the web for svc-proxy notes';
  const ask = {
    messages: [{ role: 'user' as const, content: 'Search the web for svc-proxy notes' }],
    web_search_options: { search_context_size: 'low' as const, user_location: { type: 'approximate' as const, approximate: { city: 'Zürich', country: 'CH' } } },
  };
  const expected: Record<'anthropic' | 'openai', unknown> = {
    anthropic: [{ type: 'web_search_20250305', name: 'web_search', user_location: { type: 'approximate', city: 'Zürich', country: 'CH' } }],
    // OpenAI has the context size; Anthropic has no such setting
    openai: [{ type: 'web_search', user_location: { type: 'approximate', city: 'Zürich', country: 'CH' }, search_context_size: 'low' }],
  };

  for (const kind of ['anthropic', 'openai'] as const) {
    it(`${kind}: the answer with the page it cites as a url_citation annotation, whole and streamed`, async () => {
      const annotations = [{ type: 'url_citation', url_citation: { url: 'https://example.com/search-result-1', title, start_index: 13, end_index: 13 + title.length } }];
      const res = await client.chat.completions.create({ model: MODELS[kind], ...ask });
      const message = res.choices[0]!.message;
      expect(message.content).toBe(`According to ${title}, it is so.`);
      expect(message.annotations).toEqual(annotations);
      expect((world.mocks[kind].lastGeneration().body as { tools: unknown }).tools).toEqual(expected[kind]);

      // streamed as OpenAI's search models do: a delta of their own (not in the SDK's chunk type)
      const stream = await client.chat.completions.create({ model: MODELS[kind], ...ask, stream: true });
      let text = '';
      const streamed: unknown[] = [];
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta as { content?: string | null; annotations?: unknown[] } | undefined;
        text += delta?.content ?? '';
        streamed.push(...(delta?.annotations ?? []));
      }
      expect(text).toBe(`According to ${title}, it is so.`);
      expect(streamed).toEqual(annotations);
    });
  }

  it('a Chat-speaking model gets it as sent (OpenRouter searches with it)', async () => {
    await client.chat.completions.create({ model: MODELS.openrouter, ...ask });
    expect((world.mocks.openrouter.lastGeneration().body as { web_search_options?: unknown }).web_search_options).toEqual(ask.web_search_options);
  });

  it('a model that cannot search refuses it before anything is sent', async () => {
    const before = world.mocks.customB.requests.length;
    const err = await rejection(client.chat.completions.create({ model: MODELS.customB, ...ask }));
    expect(err).toMatchObject({ status: 400 });
    expect(errorCode(err)).toBe('unsupported_feature');
    expect((err as { param?: string }).param).toBe('web_search_options');
    expect(world.mocks.customB.requests).toHaveLength(before);
  });
});

describe("Codex's web search on Claude: OpenAI's web_search tool runs as Anthropic's", () => {
  const search: OpenAI.Responses.WebSearchTool = { type: 'web_search', filters: { allowed_domains: ['example.com', 'example.org'] }, user_location: { type: 'approximate', city: 'Zürich', country: 'CH' } };
  const ask = { model: MODELS.anthropic, input: 'Search the web for svc-proxy notes', tools: [search] };
  const sent = () => world.mocks.anthropic.lastGeneration().body as Record<string, unknown>;
  const expectSearch = (output: OpenAI.Responses.ResponseOutputItem[]) => {
    expect(output.map((i) => i.type).filter((t) => t !== 'reasoning')).toEqual(['web_search_call', 'message']);
    const call = output.find((i) => i.type === 'web_search_call') as OpenAI.Responses.ResponseFunctionWebSearch;
    expect(call.status).toBe('completed');
    expect(call.action).toEqual({
      type: 'search',
      query: 'Search the web for svc-proxy notes',
      sources: [
        { type: 'url', url: 'https://example.com/search-result-1' },
        { type: 'url', url: 'https://example.org/search-result-2' },
      ],
    });
    // Claude's three text blocks (before, the cited title, after) are one text, the citation an annotation of its stretch
    const message = output.find((i) => i.type === 'message') as OpenAI.Responses.ResponseOutputMessage;
    const title = 'First page about Search the web for svc-proxy notes';
    expect(message.content).toEqual([
      // (the SDK's stream helper adds `parsed`)
      expect.objectContaining({
        type: 'output_text',
        text: `According to ${title}, it is so.`,
        annotations: [{ type: 'url_citation', url: 'https://example.com/search-result-1', title, start_index: 13, end_index: 13 + title.length }],
      }),
    ]);
  };

  it('whole and streamed: a web_search_call item with the query and pages, then the answer; Anthropic got its own server tool', async () => {
    const res = await client.responses.create(ask);
    expectSearch(res.output);
    expect(res.output_text).toBe('According to First page about Search the web for svc-proxy notes, it is so.');
    expect(sent().tools).toEqual([{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['example.com', 'example.org'], user_location: { type: 'approximate', city: 'Zürich', country: 'CH' } }]);

    const stream = client.responses.stream({ ...ask, tool_choice: { type: 'web_search_preview' } });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expectSearch(final.output);
    expect(types).toContain('response.web_search_call.completed');
    expect(types.filter((t) => t === 'response.output_text.annotation.added')).toHaveLength(1);
    expect(sent().tool_choice).toEqual({ type: 'tool', name: 'web_search' });
  });

  describe('a turn Anthropic pauses (pause_turn) is continued by the daemon: one answer, as Codex needs it', () => {
    type Block = { type: string; id?: string; content?: Array<{ encrypted_content?: string }> };
    const lastAssistant = (r: { body: Record<string, unknown> }): Block[] => {
      const last = (r.body.messages as Array<{ role: string; content: Block[] }>).at(-1)!;
      return last.role === 'assistant' ? last.content : [];
    };
    /** Part n searches (and pauses) until `pauses` parts have paused, then answers; each part's usage is n×100 in, n×10 out. */
    const scriptPauses = (pauses: number) => {
      const mock = world.mocks.anthropic;
      mock.always(
        (r) => mock.plugin.isGeneration(r),
        (r) => {
          const n = lastAssistant(r).filter((b) => b.type === 'server_tool_use').length + 1;
          const usage = { input: n * 100, output: n * 10 };
          if (n > pauses) return { kind: 'turn', turn: { text: `Done after ${n - 1} pauses.`, usage } };
          const page = { url: `https://example.com/part-${n}`, title: `Part ${n}` };
          return { kind: 'turn', turn: { reasoning: n === 1 ? { text: 'Planning the searches.' } : undefined, webSearches: [{ query: `query ${n}`, pages: [page] }], finish: 'pause', usage } };
        },
      );
    };
    const thinking = { ...ask, reasoning: { effort: 'medium' as const } };
    const logged = async (since: string) => parseEntries((await world.daemon.cli(['logs', '--json', '--since', since])).stdout);

    it('whole and streamed: every part in order, usage summed, the paused content sent back verbatim', async () => {
      scriptPauses(2);
      const since = new Date().toISOString();
      const res = await client.responses.create(thinking);
      expect(res.status).toBe('completed');
      expect(res.output.map((i) => i.type)).toEqual(['reasoning', 'web_search_call', 'web_search_call', 'message']);
      expect(res.output.filter((i) => i.type === 'web_search_call').map((i) => ((i as OpenAI.Responses.ResponseFunctionWebSearch).action as { query: string }).query)).toEqual(['query 1', 'query 2']);
      expect(res.output_text).toBe('Done after 2 pauses.');
      expect(res.usage).toMatchObject({ input_tokens: 600, output_tokens: 60 });
      const gens = world.mocks.anthropic.generations();
      expect(gens).toHaveLength(3);
      // the first part's blocks went back as they came (thinking with its signature, the search with
      // its encrypted results, which the mock accepts only from itself); the third got both parts
      const part1 = lastAssistant(gens[1]!);
      expect(part1.map((b) => b.type)).toEqual(['thinking', 'server_tool_use', 'web_search_tool_result']);
      expect(world.mocks.anthropic.searchResults.has(part1[2]!.content![0]!.encrypted_content!)).toBe(true);
      expect(lastAssistant(gens[2]!).map((b) => b.type)).toEqual(['thinking', 'server_tool_use', 'web_search_tool_result', 'server_tool_use', 'web_search_tool_result']);
      expect(gens[2]!.body.tools).toEqual(gens[0]!.body.tools);
      const [entry] = await logged(since);
      expect(entry!.status).toBe(200);
      expect(entry!.fallback).toBe(false);
      expect(entry!.attempts.map((a) => [a.status, a.continued ?? false])).toEqual([[200, false], [200, true], [200, true]]);
      expect(entry!.usage).toMatchObject({ input: 600, output: 60 });

      world.mocks.anthropic.reset();
      scriptPauses(2);
      const stream = client.responses.stream(thinking);
      const added: number[] = [];
      stream.on('response.output_item.added', (e) => added.push(e.output_index));
      const final = await stream.finalResponse();
      expect(final.status).toBe('completed');
      expect(final.output.map((i) => i.type)).toEqual(['reasoning', 'web_search_call', 'web_search_call', 'message']);
      expect(final.output_text).toBe('Done after 2 pauses.');
      expect(final.usage).toMatchObject({ input_tokens: 600, output_tokens: 60 });
      expect(added).toEqual([0, 1, 2, 3]);
      const streamed = world.mocks.anthropic.generations();
      expect(streamed).toHaveLength(3);
      expect(streamed.every((g) => g.body.stream === true)).toBe(true);
      expect(lastAssistant(streamed[2]!).map((b) => b.type)).toEqual(['thinking', 'server_tool_use', 'web_search_tool_result', 'server_tool_use', 'web_search_tool_result']);
      expect(world.mocks.anthropic.searchResults.has(lastAssistant(streamed[1]!)[2]!.content![0]!.encrypted_content!)).toBe(true);
    });

    it('after five continuations the answer goes out as it stands (incomplete); a continuation the upstream refuses or garbles fails the request, or ends the stream with an error event', async () => {
      scriptPauses(99);
      const res = await client.responses.create(ask);
      expect(res.status).toBe('incomplete');
      expect(res.output.filter((i) => i.type === 'web_search_call')).toHaveLength(6);
      expect(world.mocks.anthropic.generations()).toHaveLength(6);

      const mock = world.mocks.anthropic;
      const overloaded = { kind: 'json' as const, status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } };
      mock.reset();
      // the first call pauses; its continuation is refused
      let calls = 0;
      mock.always(
        (r) => mock.plugin.isGeneration(r),
        () => (++calls === 1 ? { kind: 'turn', turn: { webSearches: [{ query: 'query 1', pages: [{ url: 'https://example.com/a', title: 'A' }] }], finish: 'pause' } } : overloaded),
      );
      const err = await rejection(client.responses.create(ask));
      expect(err).toMatchObject({ status: 529 });
      mock.reset();
      calls = 0;
      mock.always(
        (r) => mock.plugin.isGeneration(r),
        () => (++calls === 1 ? { kind: 'turn', turn: { webSearches: [{ query: 'query 1', pages: [{ url: 'https://example.com/a', title: 'A' }] }], finish: 'pause' } } : { kind: 'raw', status: 200, contentType: 'application/json', body: '<html>gateway page</html>' }),
      );
      const garbled = await rejection(client.responses.create(ask));
      expect(garbled).toMatchObject({ status: 502 });
      expect(errorCode(garbled)).toBe('upstream_invalid_response');
      expect(garbled.message).toMatch(/the continuation of a paused turn is not JSON/);
      mock.reset();
      calls = 0;
      mock.always(
        (r) => mock.plugin.isGeneration(r),
        () => (++calls === 1 ? { kind: 'turn', turn: { webSearches: [{ query: 'query 1', pages: [{ url: 'https://example.com/a', title: 'A' }] }], finish: 'pause' } } : overloaded),
      );
      calls = 0;
      const stream = client.responses.stream(ask);
      const types: string[] = [];
      stream.on('event', (e) => types.push(e.type));
      const failed = await stream.finalResponse().then(() => undefined, (e: unknown) => e as Error);
      expect(failed?.message).toMatch(/Overloaded/);
      expect(types).toContain('response.web_search_call.completed');
      expect(types.at(-1)).toMatch(/^(error|response\.failed)$/);
    });
  });

  it('the conversation goes on with the search in its input (as Codex sends it back); a model that cannot search refuses the tool', async () => {
    const first = await client.responses.create(ask);
    const next = await client.responses.create({ model: MODELS.anthropic, input: [{ role: 'user', content: 'Search the web for svc-proxy notes' }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'And in one word?' }] });
    expect(next.output_text).toBe('Echo: And in one word?');
    const err = await rejection(client.responses.create({ ...ask, model: MODELS.openrouter }));
    expect(err).toMatchObject({ status: 400 });
    expect(errorCode(err)).toBe('unsupported_feature');
    expect(err.message).toMatch(/Web search \(web_search\) runs only on anthropic\/… and openai\/… models/);
  });
});

describe('a Chat client on openai/… (spoken to as Responses): tier, cache key and logprobs reach OpenAI and come back', () => {
  const messages = [{ role: 'user' as const, content: 'Say hi.' }];
  const asked = { service_tier: 'flex', prompt_cache_key: 'repo-42', safety_identifier: 'user-7', metadata: { run: 'nightly' }, logprobs: true, top_logprobs: 2 } as const;

  it('whole and streamed on gpt-4.1: OpenAI gets them all; the answer has choices[0].logprobs.content and the tier it was served in', async () => {
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'Hello there, friend.' } });
    const res = await client.chat.completions.create({ model: 'openai/gpt-4.1', messages, ...asked });
    const sent = world.mocks.openai.lastGeneration().body;
    expect(sent).toMatchObject({ service_tier: 'flex', prompt_cache_key: 'repo-42', safety_identifier: 'user-7', metadata: { run: 'nightly' }, top_logprobs: 2 });
    expect(sent.include).toContain('message.output_text.logprobs');
    expect(res.service_tier).toBe('flex');
    const content = res.choices[0]!.logprobs?.content ?? [];
    expect(content.map((t) => t.token).join('')).toBe('Hello there, friend.');
    expect(content[0]).toMatchObject({ token: 'Hello ', logprob: expect.any(Number), bytes: [...Buffer.from('Hello ')] });
    expect(content[0]!.top_logprobs).toHaveLength(2);

    world.mocks.openai.next({ kind: 'turn', turn: { text: 'Hello there, friend.' } });
    const stream = await client.chat.completions.create({ model: 'openai/gpt-4.1', messages, ...asked, service_tier: 'auto', stream: true, stream_options: { include_usage: true } });
    const chunks = await collect(stream);
    const tokens = chunks.flatMap((c) => c.choices[0]?.logprobs?.content ?? []);
    expect(tokens.map((t) => t.token).join('')).toBe(chatStreamText(chunks));
    expect(tokens.every((t) => t.top_logprobs.length === 2)).toBe(true);
    // the tier asked while it runs, the one that served it at the end
    expect(chunks[0]!.service_tier).toBe('auto');
    expect(chunks[chunks.length - 1]!.service_tier).toBe('default');
    expect(world.mocks.openai.lastGeneration().body).toMatchObject({ service_tier: 'auto', stream: true });
  });

  it('a reasoning model, which takes no logprobs, answers without them instead of a 400; the tier still goes', async () => {
    const res = await client.chat.completions.create({ model: 'openai/gpt-5-mini', messages, ...asked });
    expect(res.choices[0]!.logprobs).toBeNull();
    expect(res.service_tier).toBe('flex');
    const sent = world.mocks.openai.lastGeneration().body;
    expect(sent).not.toHaveProperty('top_logprobs');
    expect(sent.include).not.toContain('message.output_text.logprobs');
    expect(sent).toMatchObject({ service_tier: 'flex', prompt_cache_key: 'repo-42' });
  });
});

describe('a Codex-shaped Responses request to an OpenAI model that does not reason', () => {
  it('gpt-4.1, whole and streamed: answered, with no reasoning settings or encrypted content sent (OpenAI refuses them)', async () => {
    const codex = { input: 'Say hi.', store: false, reasoning: { effort: 'medium', summary: 'auto' }, include: ['reasoning.encrypted_content'] } satisfies Partial<OpenAI.Responses.ResponseCreateParams>;
    world.mocks.openai.next({ kind: 'turn', turn: { text: 'Hi.' } });
    const res = await client.responses.create({ model: 'openai/gpt-4.1', ...codex });
    expect(res.output_text).toBe('Hi.');
    const sent = world.mocks.openai.lastGeneration().body;
    expect(sent).not.toHaveProperty('reasoning');
    expect(sent).not.toHaveProperty('include');
    expect(sent).toMatchObject({ model: 'gpt-4.1', store: false });

    world.mocks.openai.next({ kind: 'turn', turn: { text: 'Hi.' } });
    const events = await collect(await client.responses.create({ model: 'openai/gpt-4.1', ...codex, stream: true }));
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(world.mocks.openai.lastGeneration().body).not.toHaveProperty('reasoning');
  });
});

describe("a Responses client's system message from the middle of input", () => {
  const input: OpenAI.Responses.ResponseInput = [
    { role: 'developer', content: 'Be terse.' },
    { role: 'user', content: 'What is 2+2?' },
    { role: 'assistant', content: '4.' },
    { role: 'developer', content: 'From now on, a number only.' },
    { role: 'user', content: 'And 3+3?' },
  ];
  const sent = (kind: 'openrouter' | 'gemini' | 'customA' | 'local') =>
    (world.mock(kind).lastGeneration().body.messages as Array<{ role: string; content: unknown }>).map((m) => [m.role, m.content]);

  it.each(['openrouter', 'customA', 'local'] as const)('%s: stays where it stood, a system message (the role these servers know)', async (kind) => {
    await client.responses.create({ model: MODELS[kind], instructions: 'You are a calculator.', input });
    expect(sent(kind)).toEqual([
      ['system', 'You are a calculator.\n\nBe terse.'],
      ['user', 'What is 2+2?'],
      ['assistant', '4.'],
      ['system', 'From now on, a number only.'],
      ['user', 'And 3+3?'],
    ]);
  });

  it('a local Qwen, whose chat template takes one system message, first: refused, then sent again with it in place as user text', async () => {
    const res = await client.responses.create({ model: `${SLUGS.local}/qwen3.6-35b-a3b`, instructions: 'You are a calculator.', input });
    expect(res.status).toBe('completed');
    const [refused, fitted] = world.mocks.local.generations().map((r) => (r.body.messages as Array<{ role: string }>).map((m) => m.role));
    expect(refused).toEqual(['system', 'user', 'assistant', 'system', 'user']);
    expect(fitted).toEqual(['system', 'user', 'assistant', 'user', 'user']);
  });

  it('gemini, which keeps only the last system message: every system text joins the one at the top, in order', async () => {
    await client.responses.create({ model: MODELS.gemini, instructions: 'You are a calculator.', input });
    expect(sent('gemini')).toEqual([
      ['system', 'You are a calculator.\n\nBe terse.\n\nFrom now on, a number only.'],
      ['user', 'What is 2+2?'],
      ['assistant', '4.'],
      ['user', 'And 3+3?'],
    ]);
  });

  it('anthropic, whose Messages API has only the top-level system: it goes there, in order, as from a Chat client', async () => {
    await client.responses.create({ model: MODELS.anthropic, instructions: 'You are a calculator.', input });
    const body = world.mocks.anthropic.lastGeneration().body as { system: Array<{ text: string }>; messages: Array<{ role: string }> };
    expect(body.system.map((s) => s.text)).toEqual(['You are a calculator.', 'Be terse.', 'From now on, a number only.']);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe("a Chat client's system message after an assistant turn, to a Mistral model that refuses it", () => {
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a calculator.' },
    { role: 'user', content: 'What is 2+2?' },
    { role: 'assistant', content: '4.' },
    { role: 'system', content: 'From now on, a number only.' },
    { role: 'user', content: 'And 3+3?' },
  ];
  const roles = (kind: 'customA' | 'local' | 'openrouter') =>
    world.mock(kind).generations().map((r) => (r.body.messages as Array<{ role: string }>).map((m) => m.role));

  it.each([
    ['customA', `${SLUGS.customA}/mistral-medium-3`, "Mistral's API on a custom endpoint: Unexpected role 'system' after role 'assistant'"],
    ['local', `${SLUGS.local}/devstral-small-2`, "Devstral's template on vLLM: After the optional system message, conversation roles must alternate"],
    ['local', `${SLUGS.local}/Devstral-Small-2505-Q4_K_M.gguf`, "Devstral's template on llama.cpp, answered as a 500: After the optional system message, …"],
    ['openrouter', 'openrouter/mistralai/Mistral-Small-3.2-24B-Instruct-2506', "Mistral behind OpenRouter, its words in metadata.raw: Unexpected role 'system' after role 'assistant'"],
  ] as const)('%s %s (%s): sent again with every system text in the leading message', async (kind, model, _why) => {
    const res = await client.chat.completions.create({ model, messages });
    expect(res.choices[0]!.message.content).toBeTruthy();
    const [refused, fitted] = roles(kind);
    expect(refused).toEqual(['system', 'user', 'assistant', 'system', 'user']);
    expect(fitted).toEqual(['system', 'user', 'assistant', 'user']);
    const sent = world.mock(kind).lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
    expect(sent[0]).toEqual({ role: 'system', content: 'You are a calculator.\n\nFrom now on, a number only.' });
    expect(sent.slice(1).map((m) => m.content)).toEqual(['What is 2+2?', '4.', 'And 3+3?']);
  });
});

describe("a Chat client's several system messages to gemini (passthrough), whose compat layer keeps only the last", () => {
  const sent = () => world.mocks.gemini.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;

  it('opencode-like: two leading and a reminder later all reach Gemini as one leading system message, in order', async () => {
    await client.chat.completions.create({
      model: MODELS.gemini,
      messages: [
        { role: 'system', content: 'You are opencode.' },
        { role: 'system', content: 'Project rules.' },
        { role: 'user', content: 'What is 2+2?' },
        { role: 'assistant', content: '4.' },
        { role: 'system', content: 'From now on, a number only.' },
        { role: 'user', content: 'And 3+3?' },
      ],
    });
    expect(sent()).toEqual([
      { role: 'system', content: 'You are opencode.\n\nProject rules.\n\nFrom now on, a number only.' },
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: '4.' },
      { role: 'user', content: 'And 3+3?' },
    ]);
  });

  it('one system message: the messages go as the client wrote them', async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'What is 2+2?' },
    ];
    await client.chat.completions.create({ model: MODELS.gemini, messages });
    expect(sent()).toEqual(messages);
  });
});

describe("a Chat client's mid-conversation system message to openai/… after its reasoning was put back", () => {
  it('stays where the client wrote it: the cached reasoning swapped into the tool turn moves nothing', async () => {
    const params = { model: MODELS.openai, reasoning_effort: 'high' as const, tools: [chatWeatherTool] };
    const question: OpenAI.Chat.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await client.chat.completions.create({ ...params, messages: [{ role: 'system', content: 'Lead.' }, question] });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    await client.chat.completions.create({
      ...params,
      messages: [
        { role: 'system', content: 'Lead.' },
        question,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: 'sunny' },
        { role: 'assistant', content: 'Sunny in Paris.' },
        { role: 'system', content: 'From now on, in French.' },
        { role: 'user', content: 'And Lyon?' },
      ],
    });
    const body = world.mocks.openai.lastGeneration().body as { instructions: string; input: Array<{ type?: string; role?: string; content?: unknown }> };
    expect(body.instructions).toBe('Lead.');
    const text = (c: unknown) => (typeof c === 'string' ? c : (c as Array<{ text: string }>).map((p) => p.text).join(''));
    expect(body.input.map((i) => (i.role ? `${i.role}: ${text(i.content)}` : i.type))).toEqual([
      'user: Weather in Paris?',
      'reasoning',
      'function_call',
      'function_call_output',
      'assistant: Sunny in Paris.',
      'system: From now on, in French.',
      'user: And Lyon?',
    ]);
  });
});
