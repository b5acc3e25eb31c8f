/**
 * The Vercel AI SDK (`ai` with `@ai-sdk/openai` and `@ai-sdk/anthropic`) pointed at the proxy with
 * exactly the base URL and key `svc-proxy env openai|anthropic` print: generateText and streamText
 * with a tool the SDK executes itself (two steps: the model calls the tool, then answers from its
 * result), on both bases, each to a provider of another dialect.
 *
 * The mocks answer from the request (see test/fixtures/README.md): a call of the only tool with
 * `{city: "Paris"}` while the user spoke last, then `Tool said: <tool result>`.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type LanguageModel } from 'ai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoServiceKey } from '../fixtures/e2e-helpers.js';
import type { MockUpstream } from '../fixtures/mock-upstream/index.js';
import { envJson, type EnvJson } from '../fixtures/tools.js';
import { startWorld, type World } from '../fixtures/world.js';

let world: World;
let openaiEnv: EnvJson;
let anthropicEnv: EnvJson;

beforeAll(async () => {
  world = await startWorld();
  openaiEnv = await envJson(world.daemon, 'openai');
  anthropicEnv = await envJson(world.daemon, 'anthropic');
}, 60_000);
afterAll(() => world?.close());
beforeEach(() => world.reset());

const executed: Array<{ city: string }> = [];

function weatherTool() {
  return tool({
    description: 'Current weather for a city',
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] }),
    execute: async ({ city }) => {
      executed.push({ city });
      return { city, forecast: 'sunny-31C' };
    },
  });
}

function openaiProvider() {
  return createOpenAI({ baseURL: openaiEnv.env.OPENAI_BASE_URL, apiKey: openaiEnv.env.OPENAI_API_KEY });
}

function anthropicProvider() {
  return createAnthropic({ baseURL: anthropicEnv.env.ANTHROPIC_BASE_URL, apiKey: anthropicEnv.env.ANTHROPIC_API_KEY });
}

/** Two generations at the mock: the second carries the tool result the SDK produced. */
function checkMock(mock: MockUpstream, upstreamModel: string, serviceKey: string, resultIn: (body: Record<string, unknown>) => string): void {
  const gens = mock.generations();
  expect(gens).toHaveLength(2);
  expect(gens[0]!.body.model).toBe(upstreamModel);
  expect(resultIn(gens[1]!.body as Record<string, unknown>)).toContain('sunny-31C');
  for (const g of gens) expectNoServiceKey(g, serviceKey);
}

const messagesToolResult = (b: Record<string, unknown>) => JSON.stringify((b.messages as Array<{ content: unknown }>).map((m) => m.content).filter((c) => JSON.stringify(c).includes('tool_result')));
const responsesToolResult = (b: Record<string, unknown>) => JSON.stringify((b.input as Array<{ type?: string }>).filter((i) => i.type === 'function_call_output'));
const chatToolResult = (b: Record<string, unknown>) => JSON.stringify((b.messages as Array<{ role: string }>).filter((m) => m.role === 'tool'));

async function viaGenerate(model: LanguageModel): Promise<{ text: string; steps: number; calls: unknown[] }> {
  const res = await generateText({ model, prompt: 'What is the weather in Paris?', tools: { get_weather: weatherTool() }, stopWhen: stepCountIs(3), maxRetries: 0 });
  return { text: res.text, steps: res.steps.length, calls: res.steps[0]!.toolCalls.map((c) => ({ name: c.toolName, input: c.input })) };
}

async function viaStream(model: LanguageModel): Promise<{ text: string; steps: number; calls: unknown[]; deltas: number }> {
  const res = streamText({ model, prompt: 'What is the weather in Paris?', tools: { get_weather: weatherTool() }, stopWhen: stepCountIs(3), maxRetries: 0 });
  let deltas = 0;
  let error: unknown;
  for await (const part of res.fullStream) {
    if (part.type === 'text-delta') deltas += 1;
    if (part.type === 'error') error = part.error;
  }
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  const steps = await res.steps;
  return { text: await res.text, steps: steps.length, calls: steps[0]!.toolCalls.map((c) => ({ name: c.toolName, input: c.input })), deltas };
}

describe('Vercel AI SDK through protocol A (settings from `svc-proxy env openai`)', () => {
  it('env openai: the protocol A base and the key', () => {
    expect(openaiEnv.env).toEqual({ OPENAI_BASE_URL: world.daemon.baseA(), OPENAI_API_KEY: openaiEnv.key.value });
  });

  it('generateText with a tool, Responses API (@ai-sdk/openai default) → anthropic', async () => {
    executed.length = 0;
    const out = await viaGenerate(openaiProvider()('anthropic/claude-sonnet-4-5'));
    expect(out.calls).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }]);
    expect(executed).toEqual([{ city: 'Paris' }]);
    expect(out.steps).toBe(2);
    expect(out.text).toContain('sunny-31C');
    checkMock(world.mocks.anthropic, 'claude-sonnet-4-5', openaiEnv.key.value, messagesToolResult);
  });

  it('a second turn on Claude over the Responses API: the item_reference the SDK sends for the earlier answer (store is on by default) is that answer', async () => {
    const model = openaiProvider()('anthropic/claude-sonnet-4-5');
    const first = await generateText({ model, prompt: 'Name a colour.', maxRetries: 0 });
    expect(first.text).toBe('Echo: Name a colour.');
    const second = await generateText({ model, messages: [{ role: 'user', content: 'Name a colour.' }, ...first.response.messages, { role: 'user', content: 'And another?' }], maxRetries: 0 });
    expect(second.text).toBe('Echo: And another?');
    const sent = world.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string; content: unknown }> };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.messages[1]!.content)).toContain('Echo: Name a colour.');
  });

  it('a model name the SDK takes for a reasoning model (a group name, gpt-5-…) on Claude with thinking: the reasoning and text it sends back as references are the kept items', async () => {
    await world.daemon.cli(['group', 'add', 'sdk']);
    await world.daemon.cli(['group', 'set', 'sdk', 'gpt-5-thinker', 'anthropic/claude-sonnet-4-5']);
    try {
      const bodies: string[] = [];
      const seen: typeof fetch = async (url, init) => {
        bodies.push(String(init?.body));
        return fetch(url, init);
      };
      const provider = createOpenAI({ baseURL: world.daemon.baseA('sdk'), apiKey: openaiEnv.env.OPENAI_API_KEY, fetch: seen });
      const ask = { model: provider('gpt-5-thinker'), providerOptions: { openai: { reasoningEffort: 'medium' } }, maxRetries: 0 } as const;
      const first = await generateText({ ...ask, prompt: 'Name a colour.' });
      expect(first.reasoning.length).toBeGreaterThan(0);
      const second = await generateText({ ...ask, messages: [{ role: 'user', content: 'Name a colour.' }, ...first.response.messages, { role: 'user', content: 'And another?' }] });
      expect(second.text).toBe('Echo: And another?');
      // the SDK sent both earlier items by reference only
      const input = (JSON.parse(bodies[1]!) as { input: Array<{ type?: string; role?: string }> }).input;
      expect(input.map((i) => i.type ?? i.role)).toEqual(['user', 'item_reference', 'item_reference', 'user']);
      const sent = world.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string; content: Array<{ type: string }> }> };
      // the thinking block went back with its signature (the mock refuses one it did not sign)
      expect(sent.messages.map((m) => `${m.role}:${Array.isArray(m.content) ? m.content.map((b) => b.type).join('+') : 'text'}`)).toEqual(['user:text', 'assistant:thinking+text', 'user:text']);
    } finally {
      await world.daemon.cli(['group', 'remove', 'sdk']);
    }
  });

  it('streamText with a tool, Chat Completions (openai.chat) → gemini', async () => {
    executed.length = 0;
    const out = await viaStream(openaiProvider().chat('gemini/gemini-3-pro-preview'));
    expect(out.calls).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }]);
    expect(executed).toEqual([{ city: 'Paris' }]);
    expect(out.steps).toBe(2);
    expect(out.deltas).toBeGreaterThan(1);
    expect(out.text).toContain('sunny-31C');
    checkMock(world.mocks.gemini, 'gemini-3-pro-preview', openaiEnv.key.value, chatToolResult);
  });

  it('streamText with a tool, Responses API → openai (passthrough)', async () => {
    executed.length = 0;
    const out = await viaStream(openaiProvider()('openai/gpt-5.4'));
    expect(out.calls).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }]);
    expect(out.text).toContain('sunny-31C');
    checkMock(world.mocks.openai, 'gpt-5.4', openaiEnv.key.value, responsesToolResult);
  });
});

describe('Vercel AI SDK through protocol B (settings from `svc-proxy env anthropic`)', () => {
  it('env anthropic: the protocol B base (which @ai-sdk/anthropic appends /messages to) and the key', () => {
    expect(anthropicEnv.env).toEqual({ ANTHROPIC_BASE_URL: world.daemon.baseB(), ANTHROPIC_API_KEY: anthropicEnv.key.value });
  });

  it('generateText with a tool → openai (Responses upstream)', async () => {
    executed.length = 0;
    const out = await viaGenerate(anthropicProvider()('openai/gpt-5.4'));
    expect(out.calls).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }]);
    expect(executed).toEqual([{ city: 'Paris' }]);
    expect(out.steps).toBe(2);
    expect(out.text).toContain('sunny-31C');
    checkMock(world.mocks.openai, 'gpt-5.4', anthropicEnv.key.value, responsesToolResult);
  });

  it('streamText with a tool → openrouter (Chat upstream)', async () => {
    executed.length = 0;
    const out = await viaStream(anthropicProvider()('openrouter/anthropic/claude-sonnet-4.5'));
    expect(out.calls).toEqual([{ name: 'get_weather', input: { city: 'Paris' } }]);
    expect(executed).toEqual([{ city: 'Paris' }]);
    expect(out.steps).toBe(2);
    expect(out.deltas).toBeGreaterThan(1);
    expect(out.text).toContain('sunny-31C');
    checkMock(world.mocks.openrouter, 'anthropic/claude-sonnet-4.5', anthropicEnv.key.value, chatToolResult);
  });
});
