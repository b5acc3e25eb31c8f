/**
 * Responses `custom` (freeform) tools through conversion: a target gets a function taking one
 * string, `input`, whose description carries the format (a grammar verbatim); its calls come back
 * to the client as custom_tool_calls with the decoded text, non-streamed and streamed; history
 * custom calls reach the target as calls with `{"input": …}`. openai gets the request as sent.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { HubEvent, HubRequest, HubResponse } from '../../src/protocols/hub.js';
import { foldFreeformTools, FreeformStream, unfoldFreeformCalls } from '../../src/routing/freeform-tools.js';
import { policyRefusal, readFeatures } from '../../src/routing/policy.js';
import { restoreResponseToolNames, shortenToolNames } from '../../src/routing/tool-names.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { post, useHarness } from './harness.js';

const GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?';
const PATCH = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const a = "x";\n+const a = \'y\'; // café 😀\n*** End Patch\n';
const applyPatch = { type: 'custom', name: 'apply_patch', description: 'Edit files with a patch.', format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR } };
const shell = { type: 'function', name: 'shell', parameters: { type: 'object', properties: { cmd: { type: 'string' } } }, strict: false };
const tools = [shell, applyPatch] as unknown as OpenAI.Responses.Tool[];

const base = { model: 'm', system: [], stream: false };

describe('freeform tools folded for a target and unfolded from its answer', () => {
  it('a freeform tool becomes a function of one string input, described with its grammar; history calls get {"input": …}', () => {
    const hub: HubRequest = {
      ...base,
      tools: [
        { type: 'function', name: 'apply_patch', description: 'Edit.', freeform: { type: 'grammar', syntax: 'lark', definition: GRAMMAR } },
        { type: 'function', name: 'note', freeform: { type: 'text' } },
        { type: 'function', name: 'ids', freeform: { type: 'grammar', syntax: 'regex', definition: '^[0-9]+$' } },
        { type: 'function', name: 'shell', parameters: { type: 'object' } },
      ],
      items: [
        { type: 'message', role: 'user', content: [{ type: 'text', text: 'go' }] },
        { type: 'function_call', callId: 'c1', name: 'apply_patch', arguments: PATCH, freeform: true },
        { type: 'function_call', callId: 'c2', name: 'shell', arguments: '{"cmd":"ls"}' },
      ],
    };
    const names = foldFreeformTools(hub);
    expect(names).toEqual(new Set(['apply_patch', 'note', 'ids']));
    const [patch, note, ids, plain] = hub.tools as Array<{ name: string; description?: string; parameters?: Record<string, unknown>; freeform?: unknown }>;
    expect(patch).not.toHaveProperty('freeform');
    expect(patch!.description).toBe('Edit.');
    expect(patch!.parameters).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: expect.stringContaining(GRAMMAR) } },
      required: ['input'],
      additionalProperties: false,
    });
    const described = (t: typeof patch) => (t!.parameters as { properties: { input: { description: string } } }).properties.input.description;
    expect(described(patch)).toMatch(/Lark grammar/);
    expect(described(patch)).toMatch(/free text/);
    expect(described(note)).toMatch(/free text/);
    expect(described(note)).not.toMatch(/grammar/);
    expect(described(ids)).toMatch(/regular expression[^]*\^\[0-9\]\+\$/);
    expect(plain).toEqual({ type: 'function', name: 'shell', parameters: { type: 'object' } });
    expect(hub.items[1]).toEqual({ type: 'function_call', callId: 'c1', name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) });
    expect(hub.items[2]).toEqual({ type: 'function_call', callId: 'c2', name: 'shell', arguments: '{"cmd":"ls"}' });

    expect(foldFreeformTools({ ...base, tools: [{ type: 'function', name: 'f' }], items: [] })).toBeUndefined();
  });

  it('answers: calls of those names become freeform with their text, found by the target-facing name before names are restored', () => {
    const ns = 'n'.repeat(40);
    const hub: HubRequest = { ...base, items: [], tools: [{ type: 'function', name: 'apply_patch', namespace: ns, freeform: { type: 'text' } }, { type: 'function', name: 'f' }] };
    const map = shortenToolNames(hub)!;
    const names = foldFreeformTools(hub)!;
    const target = (hub.tools[0] as { name: string }).name;
    expect(target).not.toBe('apply_patch');
    expect(names).toEqual(new Set([target]));
    const res: HubResponse = {
      id: 'r',
      model: 'm',
      stopReason: 'tool_use',
      output: [
        { type: 'function_call', callId: 'c1', name: target, arguments: JSON.stringify({ input: PATCH }) },
        { type: 'function_call', callId: 'c2', name: 'f', arguments: '{"input":"not freeform"}' },
      ],
    };
    unfoldFreeformCalls(res, names);
    restoreResponseToolNames(res, map);
    expect(res.output).toEqual([
      { type: 'function_call', callId: 'c1', name: 'apply_patch', namespace: ns, arguments: PATCH, freeform: true },
      { type: 'function_call', callId: 'c2', name: 'f', arguments: '{"input":"not freeform"}' },
    ]);
  });

  it('a stream: the block is marked, deltas become text, held text goes out before block_stop, open blocks end before finish', () => {
    const s = new FreeformStream(new Set(['apply_patch']));
    const start: HubEvent = { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: 'apply_patch' } };
    expect(s.map(start)).toEqual([{ type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: 'apply_patch', freeform: true } }]);
    const other: HubEvent = { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'd', name: 'shell' } };
    expect(s.map(other)).toEqual([{ type: 'block_start', index: 1, block: { type: 'function_call', callId: 'd', name: 'shell' } }]);
    expect(s.map({ type: 'arguments_delta', index: 0, json: '{"input":"ab\\' })).toEqual([{ type: 'arguments_delta', index: 0, json: 'ab' }]);
    expect(s.map({ type: 'arguments_delta', index: 1, json: '{"cmd":' })).toEqual([{ type: 'arguments_delta', index: 1, json: '{"cmd":' }]);
    expect(s.map({ type: 'arguments_delta', index: 0, json: 'n\\uD83D' })).toEqual([{ type: 'arguments_delta', index: 0, json: '\n' }]);
    // the high surrogate is still held: the block's end lets it go first
    expect(s.map({ type: 'block_stop', index: 0 })).toEqual([
      { type: 'arguments_delta', index: 0, json: '\uD83D' },
      { type: 'block_stop', index: 0 },
    ]);

    const t = new FreeformStream(new Set(['p']));
    t.map({ type: 'block_start', index: 2, block: { type: 'function_call', callId: 'x', name: 'p' } });
    expect(t.map({ type: 'arguments_delta', index: 2, json: '{"patch":' })).toEqual([]);
    expect(t.map({ type: 'arguments_delta', index: 2, json: '"*** Begin"}' })).toEqual([]);
    expect(t.map({ type: 'finish', stopReason: 'tool_use' })).toEqual([
      { type: 'arguments_delta', index: 2, json: '*** Begin' },
      { type: 'finish', stopReason: 'tool_use' },
    ]);
    expect(t.map({ type: 'text_delta', index: 3, text: 'x' })).toEqual([{ type: 'text_delta', index: 3, text: 'x' }]);
  });

  it('a custom tool is no hosted tool for the per-target policy', () => {
    const features = readFeatures({ tools: [shell, applyPatch, { type: 'namespace', name: 'n', tools: [applyPatch] }] }, 'responses');
    expect(features.hostedTools).toEqual([]);
    const adapter = { accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: false }, dialect: 'messages' } as unknown as ProviderAdapter;
    expect(policyRefusal(features, adapter, 'anthropic', 'responses')).toBeUndefined();
  });
});

type WireEvent = { type: string } & Record<string, unknown>;

describe('a Responses client with a custom tool, through the proxy', () => {
  const t = useHarness();
  const client = (): OpenAI => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
  const patchCall = { id: 'toolu_01PT', name: 'apply_patch', arguments: { input: PATCH } };

  it('anthropic gets a function of `input`; the tool_use comes back as a custom_tool_call; turn 2 sends it back as {"input": …}', async () => {
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Patching.', toolCalls: [patchCall] } });
    const res = await client().responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'fix it', tools, tool_choice: { type: 'custom', name: 'apply_patch' } });
    const sent = t.h.mocks.anthropic.lastGeneration().body as { tools: Array<{ name: string; description?: string; input_schema: Record<string, unknown> }>; tool_choice: unknown };
    expect(sent.tools.map((t) => t.name)).toEqual(['shell', 'apply_patch']);
    expect(sent.tools[1]!.description).toBe('Edit files with a patch.');
    expect(sent.tools[1]!.input_schema).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
    expect(JSON.stringify(sent.tools[1]!.input_schema)).toContain(JSON.stringify(GRAMMAR).slice(1, -1));
    expect(sent.tool_choice).toMatchObject({ type: 'tool', name: 'apply_patch' });
    const call = res.output.find((o) => o.type === 'custom_tool_call');
    expect(call).toEqual({ id: expect.stringMatching(/^ctc_/), type: 'custom_tool_call', call_id: 'toolu_01PT', name: 'apply_patch', input: PATCH, status: 'completed' });
    expect(res.output.some((o) => o.type === 'function_call')).toBe(false);

    t.h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'Patched.' } });
    const second = await client().responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      tools,
      input: [
        { role: 'user', content: 'fix it' },
        ...(res.output as OpenAI.Responses.ResponseInputItem[]),
        { type: 'custom_tool_call_output', call_id: 'toolu_01PT', output: 'Done! Updated src/a.ts' },
      ],
    });
    expect(second.output_text).toBe('Patched.');
    const body = t.h.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const assistant = body.messages[1]!.content;
    expect(assistant).toContainEqual(expect.objectContaining({ type: 'tool_use', id: 'toolu_01PT', name: 'apply_patch', input: { input: PATCH } }));
    expect(body.messages[2]!.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_01PT', content: 'Done! Updated src/a.ts' })]);
  });

  it('streamed from anthropic in 3-character fragments: input deltas add up to the patch, the item says it whole', async () => {
    // a raw string: escapes (\n, \", \uD83D\uDE00) get cut between fragments
    const args = JSON.stringify({ input: PATCH }).replace('😀', '\\uD83D\\uDE00');
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [{ ...patchCall, arguments: args }], stream: { chunk: 3 } } });
    const stream = client().responses.stream({ model: 'anthropic/claude-sonnet-4-5', input: 'fix it', tools });
    const events: WireEvent[] = [];
    stream.on('event', (e) => events.push(e as unknown as WireEvent));
    const final = await stream.finalResponse();
    const deltas = events.filter((e) => e.type === 'response.custom_tool_call_input.delta').map((e) => e.delta as string);
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join('')).toBe(PATCH);
    for (const d of deltas) expect(d.length > 0 && /[\uD800-\uDBFF]$/.test(d)).toBe(false);
    expect(events.find((e) => e.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: PATCH });
    expect(events.some((e) => e.type === 'response.function_call_arguments.delta')).toBe(false);
    expect(final.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', call_id: 'toolu_01PT', name: 'apply_patch', input: PATCH, status: 'completed' })]);
  });

  it('a chat target (gemini) takes it too: a function of `input`, and a streamed call comes back as custom input', async () => {
    t.h.mocks.gemini.next({ kind: 'turn', turn: { toolCalls: [{ name: 'apply_patch', arguments: { input: PATCH } }], stream: { chunk: 4 } } });
    const stream = client().responses.stream({ model: 'gemini/gemini-2.5-flash', input: 'fix it', tools });
    const final = await stream.finalResponse();
    const fn = (t.h.mocks.gemini.lastGeneration().body as { tools: Array<{ function: { name: string; parameters: Record<string, unknown> } }> }).tools[1]!.function;
    expect(fn.name).toBe('apply_patch');
    expect(fn.parameters).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
    expect(final.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'apply_patch', input: PATCH })]);
  });

  it('arguments in another shape (one string member of another name) are decided at the end of the call', async () => {
    t.h.mocks.openrouter.next({ kind: 'turn', turn: { toolCalls: [{ name: 'apply_patch', arguments: { patch: PATCH } }], stream: { chunk: 5 } } });
    const stream = client().responses.stream({ model: 'openrouter/anthropic/claude-sonnet-4.5', input: 'fix it', tools });
    const events: WireEvent[] = [];
    stream.on('event', (e) => events.push(e as unknown as WireEvent));
    const final = await stream.finalResponse();
    const deltas = events.filter((e) => e.type === 'response.custom_tool_call_input.delta');
    expect(deltas.map((e) => e.delta)).toEqual([PATCH]);
    expect(final.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', input: PATCH })]);
  });

  it('a custom tool inside a namespace: joined name for the target, a namespaced custom_tool_call back', async () => {
    const nsTools = [{ type: 'namespace', name: 'files', description: 'File tools', tools: [applyPatch] }] as unknown as OpenAI.Responses.Tool[];
    t.h.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [{ name: 'files__apply_patch', arguments: { input: PATCH } }] } });
    const res = await client().responses.create({ model: 'anthropic/claude-sonnet-4-5', input: 'fix it', tools: nsTools });
    const sent = t.h.mocks.anthropic.lastGeneration().body as { tools: Array<{ name: string; input_schema: unknown }> };
    expect(sent.tools[0]).toMatchObject({ name: 'files__apply_patch', input_schema: { properties: { input: { type: 'string' } } } });
    expect(res.output[0]).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', namespace: 'files', input: PATCH });
  });

  it('openai receives the custom tool, its calls and outputs exactly as sent (passthrough)', async () => {
    const input = [
      { role: 'user', content: 'fix it' },
      { type: 'custom_tool_call', call_id: 'call_1', name: 'apply_patch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'call_1', output: 'Done!' },
    ];
    const tail = `"tools":${JSON.stringify([shell, applyPatch])},"tool_choice":{"type":"custom","name":"apply_patch"},"input":${JSON.stringify(input)}`;
    const r = await post(`${t.h.a}/responses`, `{"model":"openai/gpt-5.4",${tail}}`);
    expect(r.status).toBe(200);
    expect(t.h.mocks.openai.lastGeneration().raw.toString('utf8')).toBe(`{"model":"gpt-5.4",${tail}}`);
  });
});
