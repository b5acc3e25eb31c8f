/**
 * Codex's `multi_agent_v1` namespace tool through conversion: a Responses request reaches an
 * Anthropic target with flat `${namespace}__${name}` tools, and the tool_use answer comes back
 * as a function_call with the namespace and the original name (non-streamed and streamed).
 * openai gets the request as sent.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HubRequest, HubResponse, HubEvent } from '../../src/protocols/hub.js';
import { readFeatures, policyRefusal } from '../../src/routing/policy.js';
import { restoreEventToolName, restoreResponseToolNames, shortenToolNames, targetToolName } from '../../src/routing/tool-names.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { post, startHarness, type Harness } from './harness.js';

const spawnParams = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false };
const multiAgent = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Spawn and manage sub-agents.',
  tools: [
    { type: 'function', name: 'spawn_agent', description: 'Start a sub-agent.', parameters: spawnParams, strict: false },
    { type: 'function', name: 'wait', description: 'Wait for agents.', parameters: { type: 'object', properties: {} }, strict: false },
  ],
};
const shell = { type: 'function', name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } }, strict: false };
const tools = [shell, multiAgent] as unknown as OpenAI.Responses.Tool[];

describe('tool names: namespaces joined and split in one place', () => {
  it('definitions, history and choice get the joined name; answers get namespace and name back', () => {
    const hub: HubRequest = {
      model: 'm',
      system: [],
      stream: false,
      tools: [
        { type: 'function', name: 'wait' },
        { type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' },
        { type: 'function', name: 'wait', namespace: 'multi_agent_v1' },
      ],
      toolChoice: { type: 'allowed_tools', mode: 'auto', names: ['spawn_agent', 'wait'] },
      items: [{ type: 'function_call', callId: 'c1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{}' }],
    };
    const map = shortenToolNames(hub)!;
    expect(hub.tools).toEqual([
      { type: 'function', name: 'wait' },
      { type: 'function', name: 'multi_agent_v1__spawn_agent' },
      { type: 'function', name: 'multi_agent_v1__wait' },
    ]);
    // a flat tool of the same name wins an unqualified choice
    expect(hub.toolChoice).toEqual({ type: 'allowed_tools', mode: 'auto', names: ['multi_agent_v1__spawn_agent', 'wait'] });
    expect(hub.items[0]).toEqual({ type: 'function_call', callId: 'c1', name: 'multi_agent_v1__spawn_agent', arguments: '{}' });

    const res: HubResponse = {
      id: 'r',
      model: 'm',
      stopReason: 'tool_use',
      output: [
        { type: 'function_call', callId: 'c2', name: 'multi_agent_v1__wait', arguments: '{}' },
        { type: 'function_call', callId: 'c3', name: 'wait', arguments: '{}' },
      ],
    };
    restoreResponseToolNames(res, map);
    expect(res.output).toEqual([
      { type: 'function_call', callId: 'c2', name: 'wait', namespace: 'multi_agent_v1', arguments: '{}' },
      { type: 'function_call', callId: 'c3', name: 'wait', arguments: '{}' },
    ]);
    const ev: HubEvent = { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: 'multi_agent_v1__spawn_agent' } };
    restoreEventToolName(ev, map);
    expect(ev).toEqual({ type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: 'spawn_agent', namespace: 'multi_agent_v1' } });
  });

  it('a function choice resolves to its namespace (named or found among the tools); long joins stay ≤ 64 and restore', () => {
    const base = { model: 'm', system: [], stream: false, items: [] };
    const named: HubRequest = { ...base, tools: [{ type: 'function', name: 'f', namespace: 'ns' }], toolChoice: { type: 'function', name: 'f', namespace: 'ns' } };
    shortenToolNames(named);
    expect(named.toolChoice).toEqual({ type: 'function', name: 'ns__f' });
    const found: HubRequest = { ...base, tools: [{ type: 'function', name: 'f', namespace: 'ns' }], toolChoice: { type: 'function', name: 'f' } };
    shortenToolNames(found);
    expect(found.toolChoice).toEqual({ type: 'function', name: 'ns__f' });

    const ns = 'n'.repeat(40);
    const name = 'x'.repeat(40);
    const long: HubRequest = { ...base, tools: [{ type: 'function', name, namespace: ns }] };
    const map = shortenToolNames(long)!;
    const target = (long.tools[0] as { name: string }).name;
    expect(target).toBe(targetToolName(name, ns));
    expect(target).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    const res: HubResponse = { id: 'r', model: 'm', stopReason: 'tool_use', output: [{ type: 'function_call', callId: 'c', name: target, arguments: '{}' }] };
    restoreResponseToolNames(res, map);
    expect(res.output[0]).toMatchObject({ name, namespace: ns });
  });

  it('a namespace tool is not a hosted tool for the per-target policy', () => {
    const features = readFeatures({ tools: [shell, multiAgent] }, 'responses');
    expect(features.hostedTools).toEqual([]);
    const adapter = { accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: false }, dialect: 'messages' } as unknown as ProviderAdapter;
    expect(policyRefusal(features, adapter, 'anthropic', 'responses')).toBeUndefined();
    expect(readFeatures({ tools: [multiAgent, { type: 'web_search' }] }, 'responses').hostedTools).toEqual(['web_search']);
  });
});

describe('a Responses client with a namespace tool, through the proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => h.reset());

  const spawnCall = { id: 'toolu_01NS', name: 'multi_agent_v1__spawn_agent', arguments: { message: 'review the diff' } };

  it('anthropic gets flat joined tools; the tool_use answer comes back as a namespaced function_call', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [spawnCall] } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const res = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'delegate', tools });
    const sent = h.mocks.anthropic.lastGeneration().body as { tools: Array<{ name: string; description?: string; input_schema: unknown }> };
    expect(sent.tools.map((t) => t.name)).toEqual(['shell', 'multi_agent_v1__spawn_agent', 'multi_agent_v1__wait']);
    expect(sent.tools[1]).toMatchObject({ description: 'Start a sub-agent.', input_schema: { properties: { message: { type: 'string' } } } });
    const fc = res.output.find((o) => o.type === 'function_call')!;
    expect(fc).toMatchObject({ type: 'function_call', call_id: 'toolu_01NS', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"message":"review the diff"}' });

    // the next turn replays the namespaced call; anthropic sees the joined name again
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'spawned' } });
    const second = await client.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      tools,
      tool_choice: { type: 'function', name: 'wait' },
      input: [
        { role: 'user', content: 'delegate' },
        { type: 'function_call', call_id: 'toolu_01NS', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"message":"review the diff"}' } as OpenAI.Responses.ResponseFunctionToolCall,
        { type: 'function_call_output', call_id: 'toolu_01NS', output: 'agent 1 started' },
      ],
    });
    expect(second.output_text).toBe('spawned');
    const body = h.mocks.anthropic.lastGeneration().body as { messages: Array<{ content: unknown }>; tool_choice: unknown };
    expect(body.messages[1]!.content).toEqual([expect.objectContaining({ type: 'tool_use', id: 'toolu_01NS', name: 'multi_agent_v1__spawn_agent' })]);
    expect(body.tool_choice).toMatchObject({ type: 'tool', name: 'multi_agent_v1__wait' });
  });

  it('streamed: output_item.added/.done and function_call_arguments.done name the function and its namespace', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [spawnCall] } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const stream = await client.responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'delegate', tools, stream: true });
    const events: Array<{ type: string } & Record<string, unknown>> = [];
    for await (const ev of stream) events.push(ev as unknown as { type: string } & Record<string, unknown>);
    const expected = { type: 'function_call', call_id: 'toolu_01NS', name: 'spawn_agent', namespace: 'multi_agent_v1' };
    const fcEvents = (type: string) => events.filter((e) => e.type === type && (e.item as { type?: string } | undefined)?.type === 'function_call');
    expect(fcEvents('response.output_item.added')[0]!.item).toMatchObject(expected);
    expect(fcEvents('response.output_item.done')[0]!.item).toMatchObject({ ...expected, arguments: '{"message":"review the diff"}' });
    expect(events.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1' });
    const completed = events.find((e) => e.type === 'response.completed')!.response as { output: unknown[] };
    expect(completed.output).toContainEqual(expect.objectContaining(expected));
  });

  it('gemini takes it too (chat-style target, same joined name)', async () => {
    h.mocks.gemini.next({ kind: 'turn', turn: { toolCalls: [{ name: 'multi_agent_v1__wait', arguments: {} }] } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const res = await client.responses.create({ model: 'gemini/gemini-2.5-flash', input: 'wait', tools });
    expect(res.output.find((o) => o.type === 'function_call')).toMatchObject({ name: 'wait', namespace: 'multi_agent_v1' });
  });

  it('a custom tool inside a namespace reaches a converted target as a joined function of `input`', async () => {
    const withCustom = { ...multiAgent, tools: [...multiAgent.tools, { type: 'custom', name: 'apply_patch' }] };
    const r = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', tools: [withCustom] });
    expect(r.status).toBe(200);
    const sent = h.mocks.anthropic.lastGeneration().body as { tools: Array<{ name: string; input_schema: unknown }> };
    expect(sent.tools[2]).toMatchObject({ name: 'multi_agent_v1__apply_patch', input_schema: { properties: { input: { type: 'string' } }, required: ['input'] } });
  });

  it('openai receives the namespace tool exactly as sent (passthrough)', async () => {
    const toolsJson = JSON.stringify([shell, multiAgent]);
    const r = await post(`${h.a}/responses`, `{"model":"openai/gpt-5.4","input":"x","tools":${toolsJson}}`);
    expect(r.status).toBe(200);
    expect(h.mocks.openai.lastGeneration().raw.toString('utf8')).toContain(`"tools":${toolsJson}`);
  });
});
