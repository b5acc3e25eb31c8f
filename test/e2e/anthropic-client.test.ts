/**
 * The official `@anthropic-ai/sdk` client through protocol B against every provider kind:
 * messages.create, messages.stream().finalMessage(), countTokens, models list (paged) and retrieve; plus the header
 * rules of passthrough (client's anthropic-version/beta forwarded, client credentials never).
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collect, errorCode, expectNoServiceKey, messagesWeatherTool, rejection, UPSTREAM_DIALECT, upstreamToolNames } from '../fixtures/e2e-helpers.js';
import { anthropicCountTokens, geminiCountTokens, responsesCountTokens } from '../fixtures/mock-upstream/index.js';
import { TEST_CREDENTIALS } from '../fixtures/daemon.js';
import { CLEARED_TOOL_RESULT } from '../../src/protocols/messages/context-edits.js';
import { KINDS, MODELS, SLUGS, startWorld, upstreamId, type World } from '../fixtures/world.js';

let world: World;
let client: Anthropic;

beforeAll(async () => {
  world = await startWorld();
  client = world.daemon.anthropic();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

describe.each(KINDS)('anthropic client → %s', (kind) => {
  const model = MODELS[kind];

  it('messages.create answers text; upstream got the model id without the provider prefix', async () => {
    const msg = await client.messages.create({
      model,
      max_tokens: 512,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(msg.type).toBe('message');
    expect(msg.role).toBe('assistant');
    expect(msg.id).toMatch(/^msg_/);
    // Reasoning models (OpenAI) may add a thinking block carrying their encrypted reasoning; the answer is the text.
    expect(msg.content.filter((b) => b.type !== 'thinking')).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: Hello there' })]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.usage.input_tokens).toBeGreaterThan(0);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
    const rec = world.mock(kind).lastGeneration();
    expect(rec.body.model).toBe(upstreamId(model));
    expect(JSON.stringify(rec.body)).toContain('You are terse.');
    expectNoServiceKey(rec, world.daemon.key);
  });

  it('messages.stream().finalMessage() with tools yields the tool_use block; every block opened and closed', async () => {
    const stream = client.messages.stream({
      model,
      max_tokens: 1024,
      tools: [messagesWeatherTool],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const events: string[] = [];
    stream.on('streamEvent', (e) => events.push(e.type));
    const final = await stream.finalMessage();
    const toolUse = final.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock | undefined;
    expect(toolUse?.name).toBe('get_weather');
    expect(toolUse?.input).toEqual({ city: 'Paris' });
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.input_tokens).toBeGreaterThan(0);
    expect(events[0]).toBe('message_start');
    expect(events.filter((t) => t === 'content_block_start').length).toBe(events.filter((t) => t === 'content_block_stop').length);
    expect(events.slice(-2)).toEqual(['message_delta', 'message_stop']);
    const rec = world.mock(kind).lastGeneration();
    expect(rec.body.stream).toBe(true);
    expect(upstreamToolNames(rec)).toEqual(['get_weather']);
  });

  it('messages.countTokens answers {input_tokens} from the provider where it has a counter', async () => {
    const params = {
      model,
      system: 'You are terse.',
      tools: [messagesWeatherTool],
      messages: [{ role: 'user' as const, content: 'How many tokens is this sentence, roughly?' }],
    };
    const res = await client.messages.countTokens(params);
    expect(Object.keys(res)).toEqual(['input_tokens']);
    expect(res.input_tokens).toBeGreaterThan(0);
    const m = world.mock(kind);
    expect(m.generations(), 'count_tokens must not generate').toHaveLength(0);
    if (kind === 'anthropic') {
      const rec = m.requests.find((r) => r.path === '/v1/messages/count_tokens')!;
      expect(rec.body.model).toBe(upstreamId(model));
      expect(res.input_tokens).toBe(anthropicCountTokens(rec.body));
    } else if (kind === 'openai') {
      const rec = m.requests.find((r) => r.path === '/v1/responses/input_tokens');
      expect(rec, 'openai counts with /v1/responses/input_tokens').toBeDefined();
      expect(res.input_tokens).toBe(responsesCountTokens(rec!.body));
    } else if (kind === 'gemini') {
      const rec = m.requests.find((r) => r.path === `/v1beta/models/${upstreamId(model)}:countTokens`);
      expect(rec, `gemini counts natively (saw ${m.describe()})`).toBeDefined();
      expect(rec!.headers['x-goog-api-key'] ?? rec!.query.get('key')).toBe(TEST_CREDENTIALS.GEMINI_API_KEY);
      expect(res.input_tokens).toBe(geminiCountTokens(rec!.body));
    } else if (kind === 'customB') {
      // Messages-speaking: its own count endpoint when it has one, else a local estimate.
      const rec = m.requests.find((r) => r.path === '/v1/messages/count_tokens');
      if (rec) expect(res.input_tokens).toBe(anthropicCountTokens(rec.body));
    } else {
      // Local estimate with a real tokenizer over system, tools and messages: more than the text alone.
      const textOnly = await client.messages.countTokens({ model, messages: params.messages });
      expect(res.input_tokens).toBeGreaterThan(textOnly.input_tokens);
    }
  });
});

describe('anthropic client: models list and headers', () => {
  it('models.list shows every provider kind with the Messages list shape', async () => {
    const page = await client.models.list({ limit: 1000 });
    const ids = page.data.map((m) => m.id);
    for (const kind of KINDS) expect(ids, `models of ${kind}`).toContain(MODELS[kind]);
    expect(ids.some((id) => id.includes('models/'))).toBe(false);
    expect(page.data[0]).toMatchObject({ type: 'model', id: expect.any(String) });
    expect(ids).toContain(`${SLUGS.local}/gpt-oss:20b`);
  });

  it('models.list pages as Anthropic does when asked (limit, after_id, before_id), whole without a limit; auto-pagination yields every model once', async () => {
    const whole = await client.models.list({ limit: 1000 });
    const ids = whole.data.map((m) => m.id);
    expect(whole.has_more).toBe(false);
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
    // a tool that reads only the first page still sees every model
    const first = await client.models.list();
    expect(first.data.map((m) => m.id)).toEqual(ids);
    expect(first).toMatchObject({ has_more: false, first_id: ids[0], last_id: ids.at(-1) });
    // what Claude Code's /model picker does: walk the pages the SDK asks for
    for (const limit of [undefined, 3]) {
      const walked: string[] = [];
      for await (const m of client.models.list(limit === undefined ? {} : { limit })) walked.push(m.id);
      expect(walked, `limit ${limit}`).toEqual(ids);
    }
    const beta: string[] = [];
    for await (const m of client.beta.models.list({ limit: 7 })) beta.push(m.id);
    expect(beta).toEqual(ids);
    const before = await client.models.list({ limit: 2, before_id: ids[4]! });
    expect(before.data.map((m) => m.id)).toEqual(ids.slice(2, 4));
    expect(before.has_more).toBe(true);
    const after = await client.models.list({ limit: 2, after_id: ids[ids.length - 2]! });
    expect(after).toMatchObject({ has_more: false, first_id: ids[ids.length - 1], last_id: ids[ids.length - 1] });
    // each asked only when awaited: a second list made at once could reject before anything awaits it
    for (const bad of [() => client.models.list({ limit: 1001 }), () => client.models.list({ after_id: 'nobody/nothing' })]) {
      const e = await rejection(bad());
      expect(e.status).toBe(400);
      expect(errorCode(e)).toBe('invalid_request');
    }
  });

  it('models carry max_input_tokens and max_tokens where the provider\'s list states them, and nothing invented elsewhere', async () => {
    const { data } = await client.models.list({ limit: 1000 });
    const byId = new Map(data.map((m) => [m.id, m]));
    // Anthropic's list states both; Gemini's native list its inputTokenLimit and outputTokenLimit
    expect(byId.get(MODELS.anthropic)).toMatchObject({ max_input_tokens: 200_000, max_tokens: 64_000 });
    expect(byId.get(MODELS.gemini)).toMatchObject({ max_input_tokens: 1_048_576, max_tokens: 65_536 });
    expect(byId.get(MODELS.openrouter)).toMatchObject({ max_input_tokens: 1_000_000 });
    // OpenAI's list states no window: the input its model pages (or, for gpt-5.4 and gpt-4.1, gateway pages) document;
    // no max_tokens from a documented figure: only a list's
    expect(byId.get(MODELS.openai)).toMatchObject({ max_input_tokens: 922_000 });
    expect(byId.get('openai/gpt-5-mini')).toMatchObject({ max_input_tokens: 272_000 });
    expect(byId.get('openai/gpt-4.1')).toMatchObject({ max_input_tokens: 1_014_808 });
    for (const id of [MODELS.openrouter, MODELS.openai, MODELS.local]) expect(byId.get(id), id).not.toHaveProperty('max_tokens');
  });

  it('models.retrieve and beta.models.retrieve answer the list\'s entry for an id with slashes; an unknown one is 404 model_not_found', async () => {
    const { data } = await client.models.list({ limit: 1000 });
    for (const id of [MODELS.openrouter, MODELS.anthropic, MODELS.local, MODELS.gemini]) {
      const listed = data.find((m) => m.id === id);
      expect(listed, id).toBeDefined();
      expect({ ...(await client.models.retrieve(id)) }, id).toEqual(listed);
      expect({ ...(await client.beta.models.retrieve(id)) }, id).toEqual(listed);
    }
    for (const id of ['anthropic/claude-none-9', 'no-provider-prefix', 'nowhere/model']) {
      const e = await rejection(client.models.retrieve(id));
      expect(e.status, id).toBe(404);
      expect(errorCode(e), id).toBe('model_not_found');
      expect((e.error as { error: { type: string } }).error.type).toBe('not_found_error');
    }
  });

  it('passthrough to anthropic: client anthropic-version and anthropic-beta forwarded; provider key, never the client credentials', async () => {
    const c = world.daemon.anthropic({ defaultHeaders: { 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14' } });
    await c.messages.create({ model: MODELS.anthropic, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] });
    const rec = world.mocks.anthropic.lastGeneration();
    expect(rec.headers['anthropic-version']).toBe('2026-10-21');
    expect(rec.headers['anthropic-beta']).toBe('fine-grained-tool-streaming-2025-05-14');
    const sentKey = rec.headers['x-api-key'] ?? String(rec.headers.authorization ?? '').replace(/^Bearer /, '');
    expect(sentKey).toBe(TEST_CREDENTIALS.ANTHROPIC_API_KEY);
    expect(rec.headers.cookie).toBeUndefined();
    expectNoServiceKey(rec, world.daemon.key);
  });

  it('converted to anthropic from protocol A: a valid anthropic-version is set by the proxy', async () => {
    await world.daemon.openai().chat.completions.create({ model: MODELS.anthropic, messages: [{ role: 'user', content: 'hi' }] });
    const rec = world.mocks.anthropic.lastGeneration();
    expect(rec.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expectNoServiceKey(rec, world.daemon.key);
  });

  it('message_start carries the real input_tokens when the upstream knows them (Messages upstreams)', async () => {
    for (const kind of KINDS.filter((k) => UPSTREAM_DIALECT[k] === 'messages')) {
      world.mock(kind).next({ kind: 'turn', turn: { text: 'ok', usage: { input: 1234, output: 5, cacheRead: 1000, cacheWrite: 0 } } });
      const events = await collect(await client.messages.create({ model: MODELS[kind], max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }] }));
      const start = events.find((e) => e.type === 'message_start') as Anthropic.RawMessageStartEvent;
      expect(start.message.usage.input_tokens, kind).toBe(234);
      expect(start.message.usage.cache_read_input_tokens, kind).toBe(1000);
    }
  });
});

describe('anthropic client → openai/* (Claude Code pointed at GPT)', () => {
  /** Fields Claude Code, Cline or an MCP host send that SDK 1.x types no longer declare (temperature, top_p, required: null). */
  const create = (params: Record<string, unknown>) => client.messages.create(params as unknown as Anthropic.MessageCreateParamsNonStreaming);
  const sent = () => world.mocks.openai.lastGeneration().body as Record<string, unknown>;

  it('sampling parameters reach only models that take them: reasoning models get none, gpt-4.1 keeps them', async () => {
    // Claude Code: temperature 1 with thinking (effort high) on gpt-5.4
    const cc = await create({ model: 'openai/gpt-5.4', max_tokens: 32000, temperature: 1, thinking: { type: 'enabled', budget_tokens: 16384 }, messages: [{ role: 'user', content: 'Hello there' }] });
    expect(cc.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Echo: Hello there' })]);
    expect(sent()).toMatchObject({ reasoning: { effort: 'high' } });
    expect(sent()).not.toHaveProperty('temperature');
    // Cline / aider: a low temperature and top_p on gpt-5-mini
    await create({ model: 'openai/gpt-5-mini', max_tokens: 512, temperature: 0.2, top_p: 0.9, messages: [{ role: 'user', content: 'hi' }] });
    expect(sent()).not.toHaveProperty('temperature');
    expect(sent()).not.toHaveProperty('top_p');
    await create({ model: 'openai/gpt-4.1', max_tokens: 512, temperature: 0.2, top_p: 0.9, messages: [{ role: 'user', content: 'hi' }] });
    expect(sent()).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    // passthrough: a Responses client's own body gets the same fit
    await world.daemon.openai().responses.create({ model: 'openai/gpt-5-mini', input: 'hi', temperature: 0.2, top_logprobs: 2 });
    expect(sent()).not.toHaveProperty('temperature');
    expect(sent()).not.toHaveProperty('top_logprobs');
  });

  it('MCP tool schemas Anthropic accepts (no properties, array without items, required: null) work on openai/*', async () => {
    const tools = [
      { name: 'list_networks', description: 'No arguments', input_schema: { type: 'object' } },
      { name: 'read_many', description: 'Read files', input_schema: { type: 'object', properties: { paths: { type: 'array' } }, required: null } },
    ];
    const stream = client.messages.stream({ model: MODELS.openai, max_tokens: 1024, tools, messages: [{ role: 'user', content: 'Which networks?' }] } as unknown as Anthropic.MessageStreamParams);
    const final = await stream.finalMessage();
    expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'list_networks', input: {} });
    const upstream = (sent().tools as Array<Record<string, unknown>>).map((t) => [t.strict, t.parameters]);
    expect(upstream).toEqual([
      [false, { type: 'object', properties: {} }],
      [false, { type: 'object', properties: { paths: { type: 'array', items: {} } } }],
    ]);
  });

  it('a conversation moved from gpt-5.4 (thinking) to gpt-4.1 goes on: no reasoning items for a model that does not reason', async () => {
    const question = { role: 'user' as const, content: 'Hello there' };
    const first = await client.messages.create({ model: MODELS.openai, max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 16384 }, messages: [question] });
    expect(first.content.map((b) => b.type)).toContain('thinking');
    const next = await client.messages.create({
      model: 'openai/gpt-4.1',
      max_tokens: 1024,
      messages: [question, { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'And again?' }],
    });
    expect(next.content).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: And again?' })]);
    const input = sent().input as Array<{ type?: string; role?: string }>;
    expect(input.map((i) => i.type ?? i.role)).toEqual(['message', 'message', 'message']);
  });

  // Claude Code's WebSearch tool: Anthropic's server tool, forced, thinking off (as its binary sends it)
  const webSearch = (extra: Record<string, unknown> = {}) => ({
    model: MODELS.openai,
    max_tokens: 4096,
    system: 'You are an assistant for performing a web search tool use',
    messages: [{ role: 'user', content: 'Perform a web search for the query: svc-proxy release notes' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search', allowed_domains: ['example.com', 'example.org'], max_uses: 8, ...extra }],
    tool_choice: { type: 'tool', name: 'web_search' },
  });
  const expectSearchBlocks = (content: Anthropic.ContentBlock[]) => {
    // (the mock's gpt-5.4 reasons unless told an effort, so a thinking block may lead)
    expect(content.map((b) => b.type).filter((t) => t !== 'thinking')).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    const use = content.find((b) => b.type === 'server_tool_use') as Anthropic.ServerToolUseBlock;
    const result = content.find((b) => b.type === 'web_search_tool_result') as Anthropic.WebSearchToolResultBlock;
    expect(use).toMatchObject({ name: 'web_search', input: { query: 'svc-proxy release notes' } });
    expect(use.id).toMatch(/^srvtoolu_[A-Za-z0-9_]+$/);
    expect(result.tool_use_id).toBe(use.id);
    return result.content as Anthropic.WebSearchResultBlock[];
  };

  it("Anthropic's web search server tool runs as OpenAI's web search: a server_tool_use and a web_search_tool_result block, whole and streamed", async () => {
    const msg = await create(webSearch());
    const pages = expectSearchBlocks(msg.content);
    // the cited page carries its title; the other one its URL
    expect(pages).toEqual([
      { type: 'web_search_result', url: 'https://example.com/search-result-1', title: 'First page about svc-proxy release notes', encrypted_content: '', page_age: null },
      { type: 'web_search_result', url: 'https://example.org/search-result-2', title: 'https://example.org/search-result-2', encrypted_content: '', page_age: null },
    ]);
    expect(msg.content.at(-1)).toMatchObject({ type: 'text', text: 'According to First page about svc-proxy release notes, it is so.' });
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    // OpenAI got its own tool: allowed domains as a filter, no max_uses (it has none), the search forced, its pages listed
    expect(sent().tools).toEqual([{ type: 'web_search', filters: { allowed_domains: ['example.com', 'example.org'] } }]);
    expect(sent().tool_choice).toBe('required');
    expect(sent().include).toEqual(['reasoning.encrypted_content', 'web_search_call.action.sources']);

    const stream = client.messages.stream(webSearch({ user_location: { type: 'approximate', city: 'Zürich', country: 'CH' } }) as unknown as Anthropic.MessageStreamParams);
    const events: Anthropic.RawMessageStreamEvent[] = [];
    stream.on('streamEvent', (e) => events.push(e));
    const final = await stream.finalMessage();
    expectSearchBlocks(final.content).forEach((p) => expect(p.title).toBe(p.url)); // titles come after the search in a stream
    // Claude Code reads the query from the server_tool_use block's input_json_delta
    const useStart = events.find((e) => e.type === 'content_block_start' && e.content_block.type === 'server_tool_use');
    const queryDelta = events.find((e) => e.type === 'content_block_delta' && e.delta.type === 'input_json_delta');
    expect(queryDelta).toMatchObject({ index: (useStart as { index: number }).index, delta: { partial_json: '{"query":"svc-proxy release notes"}' } });
    expect(events.filter((e) => e.type === 'content_block_start').length).toBe(events.filter((e) => e.type === 'content_block_stop').length);
    expect(final.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
    expect(sent().tools).toEqual([{ type: 'web_search', filters: { allowed_domains: ['example.com', 'example.org'] }, user_location: { type: 'approximate', city: 'Zürich', country: 'CH' } }]);
  });

  it('a conversation with a search in it goes on, on a model that searches and on one that does not (the search blocks stay behind)', async () => {
    const first = await create(webSearch());
    const history = [
      ...webSearch().messages,
      { role: 'assistant', content: first.content },
      { role: 'user', content: 'Thanks. And in one word?' },
    ];
    const next = await create({ ...webSearch(), messages: history, tools: undefined, tool_choice: undefined });
    expect(next.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Echo: Thanks. And in one word?' })]);
    const input = sent().input as Array<{ type?: string; role?: string }>;
    expect(input.filter((i) => i.type === 'web_search_call')).toEqual([]);
    const elsewhere = await create({ model: MODELS.openrouter, max_tokens: 1024, messages: history });
    expect(elsewhere.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Echo: Thanks. And in one word?' })]);
  });

  it("context editing (Claude Code clears old tool results after idle) is applied for GPT: old results reach it cleared, the answer reports the edit, whole and streamed", async () => {
    const messages: Anthropic.Beta.BetaMessageParam[] = [{ role: 'user', content: 'Read the three files.' }];
    for (let i = 0; i < 3; i++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_0${i}`, name: 'get_weather', input: { city: `City ${i}` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_0${i}`, content: `Result number ${i}: ${'sunny '.repeat(50)}` }] });
    }
    const params = {
      model: MODELS.openai,
      max_tokens: 1024,
      messages,
      tools: [messagesWeatherTool],
      betas: ['context-management-2025-06-27'],
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' as const, trigger: { type: 'tool_uses' as const, value: 2 }, keep: { type: 'tool_uses' as const, value: 1 } }] },
    };
    const applied = [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: expect.any(Number) as number }];
    const whole = await client.beta.messages.create(params);
    expect(whole.context_management).toEqual({ applied_edits: applied });
    const outputs = (world.mocks.openai.lastGeneration().body.input as Array<{ type?: string; output?: string }>).filter((i) => i.type === 'function_call_output').map((i) => i.output);
    expect(outputs.map((o) => (o?.startsWith('Result number') ? o.slice(0, 15) : o))).toEqual([CLEARED_TOOL_RESULT, CLEARED_TOOL_RESULT, 'Result number 2']);
    expect(world.mocks.openai.lastGeneration().body).not.toHaveProperty('context_management');

    const streamed = await client.beta.messages.stream(params).finalMessage();
    expect(streamed.context_management).toEqual({ applied_edits: applied });
    // passthrough to Claude: Anthropic applies it itself, the field goes as sent
    await client.beta.messages.create({ ...params, model: MODELS.anthropic });
    expect(world.mocks.anthropic.lastGeneration().body.context_management).toEqual(params.context_management);
  });

  it("Claude Code's advisor (its tool and advice Claude already got) is left out for GPT and Gemini, and reaches Claude as sent", async () => {
    const advised = {
      max_tokens: 1024,
      tools: [{ type: 'advisor_20260301', name: 'advisor', model: 'claude-opus-4-6' }, messagesWeatherTool],
      messages: [
        { role: 'user', content: 'Plan the refactor.' },
        { role: 'assistant', content: [
          { type: 'server_tool_use', id: 'srvtoolu_01adv', name: 'advisor', input: {} },
          { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_01adv', content: { type: 'advisor_result', text: 'Split the module first.' } },
          { type: 'text', text: 'Splitting the module first.' },
        ] },
        { role: 'user', content: 'Go on.' },
      ],
    };
    for (const model of [MODELS.openai, MODELS.gemini]) {
      const msg = await create({ ...advised, model });
      expect(msg.content.some((b) => b.type === 'text' || b.type === 'tool_use')).toBe(true);
    }
    const toOpenAI = JSON.stringify(world.mocks.openai.lastGeneration().body);
    const toGemini = JSON.stringify(world.mocks.gemini.lastGeneration().body);
    for (const body of [toOpenAI, toGemini]) {
      expect(body).not.toContain('advisor');
      expect(body).toContain('Splitting the module first.');
      expect(body).toContain('get_weather');
    }
    await create({ ...advised, model: MODELS.anthropic });
    const toClaude = world.mocks.anthropic.lastGeneration().body as { tools: unknown[]; messages: Array<{ content: unknown }> };
    expect(toClaude.tools[0]).toEqual(advised.tools[0]);
    expect(toClaude.messages[1]!.content).toEqual(advised.messages[1]!.content);
  });

  it('web search next to function tools is forced with allowed_tools; a target that cannot search refuses it in the Messages error shape', async () => {
    await create({ ...webSearch(), tools: [...webSearch().tools, messagesWeatherTool] });
    expect(sent().tool_choice).toEqual({ type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] });
    const err = await create({ ...webSearch(), model: MODELS.openrouter }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as { error: { error: { type: string; message: string } } }).error.error.message).toMatch(/Web search \(web_search_20250305\) runs only on anthropic\/… and openai\/… models/);
    expect(world.mocks.openrouter.generations()).toHaveLength(0);
  });
});

describe("deferred tools (Claude Code's tool search, sent to any base URL since 2.1.247)", () => {
  const create = (params: Record<string, unknown>) => client.messages.create(params as unknown as Anthropic.MessageCreateParamsNonStreaming);
  const fn = (name: string, defer = false) => ({ name, description: `The ${name} tool.`, input_schema: { type: 'object', properties: { query: { type: 'string' } } }, ...(defer ? { defer_loading: true } : {}) });
  const tools = [fn('ToolSearch'), fn('Lookup', true), fn('DeferredToolPlaceholder', true)];
  const question = { role: 'user', content: 'Look it up.' };
  const searched = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_search1', name: 'ToolSearch', input: { query: 'select:Lookup' } }] };
  const loaded = (name: string) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_search1', content: [{ type: 'tool_reference', tool_name: name }] }] });
  const openaiTools = () => (world.mocks.openai.lastGeneration().body.tools as Array<{ name: string }>).map((t) => t.name);

  it('a deferred tool reaches a converted upstream once a tool_reference loaded it; passthrough to anthropic keeps the shape as sent', async () => {
    await create({ model: MODELS.openai, max_tokens: 1024, tools, messages: [question] });
    expect(openaiTools()).toEqual(['ToolSearch']);

    const history = [question, searched, loaded('Lookup')];
    await create({ model: MODELS.openai, max_tokens: 1024, tools, messages: history });
    expect(openaiTools()).toEqual(['ToolSearch', 'Lookup']);
    const input = world.mocks.openai.lastGeneration().body.input as Array<{ type?: string; call_id?: string; output?: unknown }>;
    expect(input.find((i) => i.type === 'function_call_output')).toEqual({ type: 'function_call_output', call_id: 'toolu_search1', output: 'Tool "Lookup" is loaded and can be called now.' });

    // a Chat upstream, streamed: the same tools, the reference as the tool message's text
    const stream = client.messages.stream({ model: MODELS.openrouter, max_tokens: 1024, tools, messages: history } as unknown as Anthropic.MessageStreamParams);
    await stream.finalMessage();
    const chat = world.mocks.openrouter.lastGeneration().body as { tools: Array<{ function: { name: string } }>; messages: Array<{ role: string; content?: unknown }> };
    expect(chat.tools.map((t) => t.function.name)).toEqual(['ToolSearch', 'Lookup']);
    expect(chat.messages.find((m) => m.role === 'tool')?.content).toBe('Tool "Lookup" is loaded and can be called now.');

    await create({ model: MODELS.anthropic, max_tokens: 1024, tools, messages: history });
    const sentToAnthropic = world.mocks.anthropic.lastGeneration().body as { tools: unknown; messages: unknown };
    expect(sentToAnthropic.tools).toEqual(tools);
    expect(sentToAnthropic.messages).toEqual(history);
  });

  it('tools added and removed mid-conversation (a system message, as Claude Code adds MCP tools that connect late) set what a converted upstream offers', async () => {
    const late = { name: 'mcp__notes__search', description: 'Search the notes.', input_schema: { type: 'object', properties: { q: { type: 'string' } } } };
    const changes = {
      role: 'system',
      content: [
        { type: 'tool_addition', tool: { type: 'tool_reference', name: 'Lookup' } },
        { type: 'tool_addition', tool: { type: 'tool_definition', definition: late } },
        { type: 'tool_removal', tool: { type: 'tool_reference', name: 'ToolSearch' } },
      ],
    };
    const messages = [question, { role: 'assistant', content: 'Which notes?' }, changes, { role: 'user', content: 'The svc-proxy ones.' }];
    await create({ model: MODELS.openai, max_tokens: 1024, tools, messages });
    expect(openaiTools()).toEqual(['Lookup', 'mcp__notes__search']);
    // the notices stand where the system message did, between the assistant turn and the user's answer
    const input = world.mocks.openai.lastGeneration().body.input as Array<{ role?: string; content?: unknown }>;
    expect(input.map((i) => i.role)).toEqual(['user', 'assistant', 'system', 'user']);
    expect(JSON.stringify(input[2]!.content)).toContain('Tool \\"ToolSearch\\" can no longer be called.');
    await create({ model: MODELS.anthropic, max_tokens: 1024, tools, messages });
    expect((world.mocks.anthropic.lastGeneration().body as { messages: unknown }).messages).toEqual(messages);
  });

  it('a reference to a tool the request does not declare is refused in the Messages error shape, before any upstream', async () => {
    const err = await create({ model: MODELS.openai, max_tokens: 1024, tools, messages: [question, searched, loaded('Unknown')] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (err as { error: { type: string; error: { type: string; message: string; code: string } } }).error;
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_tool_call' } });
    expect(body.error.message).toContain('tool_reference names "Unknown", which is not in tools');
    expect(world.mocks.openai.generations()).toHaveLength(0);
  });
});

describe('a conversation that ends with an assistant turn, to a model that takes no prefill', () => {
  const opus = 'anthropic/claude-opus-4-6';
  const cut: Anthropic.MessageParam[] = [
    { role: 'user', content: 'Write a haiku.' },
    { role: 'assistant', content: 'Autumn moonlight—' },
  ];
  const sentMessages = () => world.mocks.anthropic.generations().map((r) => r.body.messages as Array<{ role: string }>);

  it('Messages client (a reply cut off, as Claude Code leaves it): sent again with a user turn after it', async () => {
    const out = await client.messages.create({ model: opus, max_tokens: 500, messages: cut });
    expect(out.content[0]).toMatchObject({ type: 'text' });
    const [refused, retried] = sentMessages();
    expect(refused!.at(-1)!.role).toBe('assistant');
    expect(retried!.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: '(continue)' }] });
    expect(retried!.slice(0, 2)).toEqual(refused);
  });

  it('Chat client, streamed: the same, and a model that takes prefill gets it as sent', async () => {
    const openai = world.daemon.openai();
    const chunks = await collect(await openai.chat.completions.create({ model: opus, stream: true, messages: [{ role: 'user', content: 'Write a haiku.' }, { role: 'assistant', content: 'Autumn moonlight—' }] }));
    expect(chunks.some((c) => c.choices[0]?.delta?.content)).toBe(true);
    expect(sentMessages().map((m) => m.at(-1)!.role)).toEqual(['assistant', 'user']);

    world.reset();
    await client.messages.create({ model: MODELS.anthropic, max_tokens: 500, messages: cut });
    expect(sentMessages().map((m) => m.at(-1)!.role), 'Sonnet 4.5 takes prefill: one request, as sent').toEqual(['assistant']);
  });

  it("behind a Chat endpoint (OpenRouter quotes Anthropic's refusal): the same", async () => {
    const out = await client.messages.create({ model: 'openrouter/anthropic/claude-opus-4.6', max_tokens: 500, messages: cut });
    expect(out.content[0]).toMatchObject({ type: 'text' });
    const sent = world.mocks.openrouter.generations().map((r) => (r.body.messages as Array<{ role: string; content: unknown }>).at(-1));
    expect(sent.map((m) => m!.role)).toEqual(['assistant', 'user']);
    expect(sent[1]!.content).toEqual([{ type: 'text', text: '(continue)' }]);
  });
});

describe('more output than the model takes (Claude Code asks for what its own model name allows)', () => {
  const sent = () => world.mocks.anthropic.generations().map((r) => ({ max_tokens: r.body.max_tokens, thinking: r.body.thinking }));

  it("Messages passthrough: sent again within the limit Anthropic states, thinking budget under it; the limit is remembered", async () => {
    const out = await client.messages.create({ model: 'anthropic/claude-opus-4-5', max_tokens: 128_000, thinking: { type: 'enabled', budget_tokens: 127_999 }, messages: [{ role: 'user', content: 'Plan the refactor.' }] });
    expect(out.content.some((b) => b.type === 'text')).toBe(true);
    expect(sent()).toEqual([
      { max_tokens: 128_000, thinking: { type: 'enabled', budget_tokens: 127_999 } },
      { max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 63_999 } },
    ]);

    world.reset();
    const stream = client.messages.stream({ model: 'anthropic/claude-opus-4-5', max_tokens: 100_000, messages: [{ role: 'user', content: 'Again.' }] });
    expect((await stream.finalMessage()).content.length).toBeGreaterThan(0);
    expect(sent(), 'the next request goes out within the limit at once').toEqual([{ max_tokens: 64_000, thinking: undefined }]);
  });

  it('converted from a Chat client: the same; a thinking budget over the limit is brought under it', async () => {
    const openai = world.daemon.openai();
    const out = await openai.chat.completions.create({ model: 'anthropic/claude-3-haiku-20240307', max_completion_tokens: 20_000, messages: [{ role: 'user', content: 'Hi.' }] });
    expect(out.choices[0]!.message.content).toBeTruthy();
    expect(sent().map((s) => s.max_tokens)).toEqual([20_000, 4_096]);

    world.reset();
    const thinking = await client.messages.create({ model: 'anthropic/claude-opus-4-1', max_tokens: 40_000, thinking: { type: 'enabled', budget_tokens: 39_000 }, messages: [{ role: 'user', content: 'Hi.' }] });
    expect(thinking.content.length).toBeGreaterThan(0);
    expect(sent().at(-1)).toEqual({ max_tokens: 32_000, thinking: { type: 'enabled', budget_tokens: 31_999 } });
  });
});

describe("a Messages client's inline system message (SDK 1.x) from the middle of the conversation", () => {
  // MessageParam of API 2026-10-21 takes role "system"; the installed SDK's types may predate it.
  const messages = [
    { role: 'user', content: 'What is 2+2?' },
    { role: 'assistant', content: '4.' },
    { role: 'system', content: 'From now on, a number only.' },
    { role: 'user', content: 'And 3+3?' },
  ] as unknown as Anthropic.MessageParam[];
  const ask = (model: string) => client.messages.create({ model, max_tokens: 256, system: 'You are a calculator.', messages });

  it('a Chat upstream that takes it in place (openrouter) gets it where the client wrote it', async () => {
    await ask(MODELS.openrouter);
    const sent = world.mocks.openrouter.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.map((m) => [m.role, typeof m.content === 'string' ? m.content : JSON.stringify(m.content)])).toEqual([
      ['system', 'You are a calculator.'],
      ['user', 'What is 2+2?'],
      ['assistant', '4.'],
      ['system', 'From now on, a number only.'],
      ['user', 'And 3+3?'],
    ]);
  });

  it('openai (Responses): the leading system is instructions, the later one an input message where it stood', async () => {
    await ask(MODELS.openai);
    const body = world.mocks.openai.lastGeneration().body as { instructions: string; input: Array<{ role?: string; content?: unknown }> };
    expect(body.instructions).toBe('You are a calculator.');
    const text = (c: unknown) => (typeof c === 'string' ? c : (c as Array<{ text: string }>).map((p) => p.text).join(''));
    expect(body.input.map((i) => [i.role, text(i.content)])).toEqual([
      ['user', 'What is 2+2?'],
      ['assistant', '4.'],
      ['system', 'From now on, a number only.'],
      ['user', 'And 3+3?'],
    ]);
  });

  it('gemini, which keeps only the last system message: joined to the leading one, in order', async () => {
    await ask(MODELS.gemini);
    const sent = world.mocks.gemini.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(sent[0]!.content)).toContain('You are a calculator.\\n\\nFrom now on, a number only.');
  });

  it('anthropic (passthrough): the messages go as the client wrote them', async () => {
    await ask(MODELS.anthropic);
    expect((world.mocks.anthropic.lastGeneration().body as { messages: unknown }).messages).toEqual(messages);
  });

  it('custom format b (passthrough too): the same', async () => {
    await ask(MODELS.customB);
    expect((world.mocks.customB.lastGeneration().body as { messages: unknown }).messages).toEqual(messages);
  });
});
