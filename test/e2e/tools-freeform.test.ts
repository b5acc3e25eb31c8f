/**
 * Codex's freeform `apply_patch` (a Responses `custom` tool held to a Lark grammar) through the
 * real daemon with the official `openai` client, to a Messages upstream (anthropic) and to Chat
 * upstreams (gemini, openrouter), non-streamed and streamed, over two turns: the upstream gets a
 * function taking `input`, the client gets a custom_tool_call with the patch text, and the call
 * and its output sent back reach the upstream as a call with `{"input": …}` and its result. Also
 * a group name (gpt-5.4 mapped to Claude, as Codex users do), and openai passthrough.
 */
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectNoServiceKey, UPSTREAM_DIALECT } from '../fixtures/e2e-helpers.js';
import type { RecordedRequest } from '../fixtures/mock-upstream/index.js';
import { MODELS, startWorld, type Kind, type World } from '../fixtures/world.js';

const GROUP = 'codex';
const GROUP_MODEL = 'gpt-5.4';

/** A grammar in the spirit of Codex's own for apply_patch (written here, not copied). */
const GRAMMAR = [
  'start: begin_patch hunk+ end_patch',
  'begin_patch: "*** Begin Patch" LF',
  'end_patch: "*** End Patch" LF?',
  'hunk: add_hunk | delete_hunk | update_hunk',
  'add_hunk: "*** Add File: " filename LF add_line+',
  'delete_hunk: "*** Delete File: " filename LF',
  'update_hunk: "*** Update File: " filename LF change+',
  'filename: /(.+)/',
  'add_line: "+" /(.*)/ LF',
  'change: ("@@" /(.*)/ LF)? (/[ +-](.*)/ LF)+',
  '%import common.LF',
].join('\n');

const PATCH = [
  '*** Begin Patch',
  '*** Update File: src/greet.ts',
  '@@ export function greet',
  '-  return "Hello, " + name;',
  "+  return `Hello, ${name} 👋 — café`; // \\o/",
  '*** Add File: notes/TODO.md',
  '+- [ ] tab\there',
  '*** End Patch',
  '',
].join('\n');

const TOOLS = [
  {
    type: 'function',
    name: 'shell_command',
    description: 'Runs a shell command.',
    strict: false,
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
  },
  {
    type: 'custom',
    name: 'apply_patch',
    description: 'Use the `apply_patch` tool to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
    format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR },
  },
] as OpenAI.Responses.Tool[];

const USER: OpenAI.Responses.ResponseInputItem = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Make greet() friendlier.' }] };

/** The body Codex sends (Responses, stateless), with the conversation so far. */
function codexRequest(model: string, input: OpenAI.Responses.ResponseInputItem[]): Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'> {
  return {
    model,
    instructions: 'You are a coding agent running in the Codex CLI.',
    input,
    tools: TOOLS,
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: 'e2e-freeform',
  };
}

let world: World;
let client: OpenAI;

beforeAll(async () => {
  world = await startWorld({ setup: (d) => d.cli(['group', 'add', GROUP, '--model', `${GROUP_MODEL}=${MODELS.anthropic}`]).then(() => undefined) });
  client = world.daemon.openai();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

/** The apply_patch function as the upstream got it: its description and parameters schema. */
function upstreamPatchTool(kind: Kind, rec: RecordedRequest): { description?: string; schema: Record<string, unknown> } {
  const tools = rec.body.tools as Array<Record<string, unknown>>;
  if (UPSTREAM_DIALECT[kind] === 'messages') {
    const t = tools.find((x) => x.name === 'apply_patch') as { description?: string; input_schema: Record<string, unknown> };
    return { description: t.description, schema: t.input_schema };
  }
  const fn = (tools.find((x) => (x.function as { name?: string } | undefined)?.name === 'apply_patch') as { function: { description?: string; parameters: Record<string, unknown> } }).function;
  return { description: fn.description, schema: fn.parameters };
}

/** The replayed call of `callId` and its result in an upstream request: the call's arguments as an object, the result as text. */
function upstreamReplay(kind: Kind, rec: RecordedRequest, callId: string): { args: unknown; result: string } {
  const messages = rec.body.messages as Array<Record<string, unknown>>;
  if (UPSTREAM_DIALECT[kind] === 'messages') {
    const blocks = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []));
    const use = blocks.find((b) => b.type === 'tool_use' && b.id === callId)!;
    const result = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === callId)!;
    return { args: use.input, result: typeof result.content === 'string' ? result.content : JSON.stringify(result.content) };
  }
  const calls = messages.flatMap((m) => (Array.isArray(m.tool_calls) ? (m.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>) : []));
  const call = calls.find((c) => c.id === callId)!;
  expect(call.function.name).toBe('apply_patch');
  const tool = messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)!;
  return { args: JSON.parse(call.function.arguments), result: typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content) };
}

function expectInputFunction(kind: Kind): void {
  const tool = upstreamPatchTool(kind, world.mock(kind).lastGeneration());
  expect(tool.description).toContain('FREEFORM tool');
  expect(tool.schema).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
  const described = (tool.schema.properties as { input: { description: string } }).input.description;
  expect(described).toContain('Lark grammar');
  expect(described).toContain(GRAMMAR);
}

type CustomCall = OpenAI.Responses.ResponseCustomToolCall & { id: string; status: string };

function customCallOf(output: OpenAI.Responses.ResponseOutputItem[]): CustomCall {
  const calls = output.filter((o) => o.type === 'custom_tool_call');
  expect(calls).toHaveLength(1);
  expect(output.some((o) => o.type === 'function_call')).toBe(false);
  return calls[0] as CustomCall;
}

/** Turn 2: the custom call and its output sent back reach the upstream as a call of `input` and its result. */
async function secondTurn(kind: Kind, model: string, output: OpenAI.Responses.ResponseOutputItem[], call: CustomCall): Promise<void> {
  const mock = world.mock(kind);
  mock.next({ kind: 'turn', turn: { text: 'Patched greet().' } });
  const input = [
    USER,
    ...(output as OpenAI.Responses.ResponseInputItem[]),
    { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Success. Updated the following files:\nM src/greet.ts\nA notes/TODO.md' },
  ] as OpenAI.Responses.ResponseInputItem[];
  const res = await client.responses.create(codexRequest(model, input));
  expect(res.output_text).toBe('Patched greet().');
  const replay = upstreamReplay(kind, mock.lastGeneration(), call.call_id);
  expect(replay.args).toEqual({ input: PATCH });
  expect(replay.result).toContain('Updated the following files');
}

describe.each(['anthropic', 'gemini', 'openrouter'] as const)('Codex-like apply_patch (custom tool) → %s', (kind) => {
  const model = MODELS[kind];

  it('non-streamed: the upstream gets a function of `input`; the client a custom_tool_call with the patch; turn 2 replays it', async () => {
    expect(UPSTREAM_DIALECT[kind]).not.toBe('responses');
    const mock = world.mock(kind);
    mock.next({ kind: 'turn', turn: { text: 'I will patch it.', toolCalls: [{ name: 'apply_patch', arguments: { input: PATCH } }] } });
    const res = await client.responses.create(codexRequest(model, [USER]));
    expectInputFunction(kind);
    expectNoServiceKey(mock.lastGeneration(), world.daemon.key);
    const call = customCallOf(res.output);
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: PATCH, status: 'completed' });
    expect(call.id).toMatch(/^ctc_/);
    expect(call.call_id.length).toBeGreaterThan(0);
    await secondTurn(kind, model, res.output, call);
  });

  it('streamed: input deltas add up to the patch, response.completed holds the custom_tool_call; turn 2 replays it', async () => {
    const mock = world.mock(kind);
    mock.next({ kind: 'turn', turn: { toolCalls: [{ name: 'apply_patch', arguments: { input: PATCH } }], stream: { chunk: 4 } } });
    const stream = client.responses.stream(codexRequest(model, [USER]));
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    stream.on('event', (e) => events.push(e));
    const final = await stream.finalResponse();
    expectInputFunction(kind);
    expect(mock.lastGeneration().body.stream).toBe(true);

    const deltas = events.filter((e): e is OpenAI.Responses.ResponseCustomToolCallInputDeltaEvent => e.type === 'response.custom_tool_call_input.delta');
    // Gemini sends a tool call whole, in one chunk; the others in fragments
    expect(deltas.length).toBeGreaterThan(kind === 'gemini' ? 0 : 5);
    expect(deltas.map((d) => d.delta).join('')).toBe(PATCH);
    const done = events.find((e): e is OpenAI.Responses.ResponseCustomToolCallInputDoneEvent => e.type === 'response.custom_tool_call_input.done');
    expect(done?.input).toBe(PATCH);
    expect(events.some((e) => e.type === 'response.function_call_arguments.delta')).toBe(false);
    const completed = events.find((e): e is OpenAI.Responses.ResponseCompletedEvent => e.type === 'response.completed')!;
    const call = customCallOf(completed.response.output);
    expect(call).toMatchObject({ name: 'apply_patch', input: PATCH, status: 'completed' });
    expect(customCallOf(final.output).input).toBe(PATCH);
    await secondTurn(kind, model, completed.response.output, call);
  });
});

describe('Codex-like apply_patch, other routes', () => {
  it(`a group name (${GROUP_MODEL} → Claude, as Codex users map it), streamed`, async () => {
    world.mocks.anthropic.next({ kind: 'turn', turn: { toolCalls: [{ name: 'apply_patch', arguments: { input: PATCH } }], stream: { chunk: 7 } } });
    const grouped = world.daemon.openai({ group: GROUP });
    const final = await grouped.responses.stream(codexRequest(GROUP_MODEL, [USER])).finalResponse();
    expect(world.mocks.anthropic.lastGeneration().body.model).toBe('claude-sonnet-4-5');
    expectInputFunction('anthropic');
    expect(customCallOf(final.output)).toMatchObject({ name: 'apply_patch', input: PATCH });
  });

  it('openai: the custom tool and a custom call with its output reach the upstream as sent (passthrough)', async () => {
    const history = [
      USER,
      { type: 'custom_tool_call', call_id: 'call_p1', name: 'apply_patch', input: PATCH },
      { type: 'custom_tool_call_output', call_id: 'call_p1', output: 'Done' },
    ] as OpenAI.Responses.ResponseInputItem[];
    const res = await client.responses.create(codexRequest(MODELS.openai, history));
    expect(res.status).toBe('completed');
    const body = world.mocks.openai.lastGeneration().body as { tools: unknown; input: unknown };
    expect(body.tools).toEqual(TOOLS);
    expect(body.input).toEqual(history);
  });
});
