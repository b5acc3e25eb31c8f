/**
 * Responses `namespace` tools (Codex's `multi_agent_v1`): decoded into hub function tools that
 * carry their namespace, history calls likewise; calls answered with a namespace say it again,
 * non-streamed and streamed.
 */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { HubEvent, HubResponse } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { SseParser } from '../../../src/protocols/sse.js';

const spawnParams = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
const namespaceTool = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Sub-agents',
  tools: [
    { type: 'function', name: 'spawn_agent', description: 'Start one', parameters: spawnParams, strict: false },
    { type: 'function', name: 'wait', parameters: { type: 'object', properties: {} } },
  ],
};

function errorOf(body: unknown): ProtocolError {
  try {
    responsesCodec.decodeRequest(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ProtocolError);
    return err as ProtocolError;
  }
  throw new Error('expected decodeRequest to throw');
}

describe('decoding namespace tools', () => {
  it('flattens the functions, in place among the other tools, each with its namespace', () => {
    const req = responsesCodec.decodeRequest({
      model: 'm/x',
      input: 'hi',
      tools: [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: {} } }, namespaceTool, { type: 'web_search' }],
    });
    expect(req.tools).toEqual([
      { type: 'function', name: 'shell', parameters: { type: 'object', properties: {} } },
      { type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1', description: 'Start one', parameters: spawnParams, strict: false },
      { type: 'function', name: 'wait', namespace: 'multi_agent_v1', parameters: { type: 'object', properties: {} } },
      { type: 'web_search', name: 'web_search' },
    ]);
  });

  it('reads the namespace of history calls, and of a tool_choice that names one', () => {
    const req = responsesCodec.decodeRequest({
      model: 'm/x',
      tools: [namespaceTool],
      tool_choice: { type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' },
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'call_1', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"message":"x"}' },
        { type: 'function_call', call_id: 'call_2', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'started' },
        { type: 'function_call_output', call_id: 'call_2', output: 'ok' },
      ],
    });
    expect(req.items[1]).toEqual({ type: 'function_call', callId: 'call_1', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"message":"x"}' });
    expect(req.items[2]).not.toHaveProperty('namespace');
    expect(req.toolChoice).toEqual({ type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' });
    const plainChoice = responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', tools: [namespaceTool], tool_choice: { type: 'function', name: 'wait' } });
    expect(plainChoice.toolChoice).toEqual({ type: 'function', name: 'wait' });
  });

  it('reads a custom tool inside a namespace as a freeform function of that namespace', () => {
    const custom = { ...namespaceTool, tools: [namespaceTool.tools[0], { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'text' } }] };
    const req = responsesCodec.decodeRequest({ model: 'm/x', input: 'hi', tools: [custom] });
    expect(req.tools[1]).toEqual({ type: 'function', name: 'apply_patch', description: 'Patch', freeform: { type: 'text' }, namespace: 'multi_agent_v1' });
  });

  it('refuses malformed namespaces cleanly', () => {
    const badCustom = { ...namespaceTool, tools: [{ type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark' } }] };
    const cases: Array<[unknown, string, string]> = [
      [{ model: 'm/x', input: 'hi', tools: [badCustom] }, 'invalid_request', 'tools[0].tools[0].format.definition'],
      [{ model: 'm/x', input: 'hi', tools: [{ type: 'namespace', tools: [] }] }, 'invalid_request', 'tools[0].name'],
      [{ model: 'm/x', input: 'hi', tools: [{ type: 'namespace', name: '', tools: [] }] }, 'invalid_request', 'tools[0].name'],
      [{ model: 'm/x', input: 'hi', tools: [{ type: 'namespace', name: 'n' }] }, 'invalid_request', 'tools[0].tools'],
      [{ model: 'm/x', input: 'hi', tools: [{ type: 'namespace', name: 'n', tools: ['x'] }] }, 'invalid_request', 'tools[0].tools[0]'],
      [{ model: 'm/x', input: 'hi', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'web_search' }] }] }, 'invalid_request', 'tools[0].tools[0].type'],
      [{ model: 'm/x', input: 'hi', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'function' }] }] }, 'invalid_request', 'tools[0].tools[0].name'],
      [{ model: 'm/x', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', namespace: 3 }] }, 'invalid_tool_call', 'input[0].namespace'],
      [{ model: 'm/x', input: 'hi', tool_choice: { type: 'function', name: 'f', namespace: 3 } }, 'invalid_request', 'tool_choice.namespace'],
    ];
    for (const [body, code, param] of cases) {
      const err = errorOf(body);
      expect([err.status, err.code, err.param]).toEqual([400, code, param]);
    }
  });
});

describe('encoding calls of namespace tools for a Responses client', () => {
  const ctx = { model: 'anthropic/claude-sonnet-4-5', created: 1, idSuffix: 'S' };

  it('non-streamed: the function_call item carries the name inside the namespace and the namespace', () => {
    const res: HubResponse = {
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      stopReason: 'tool_use',
      output: [
        { type: 'function_call', callId: 'toolu_1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"message":"x"}' },
        { type: 'function_call', callId: 'toolu_2', name: 'shell', arguments: '{}' },
      ],
    };
    const out = responsesCodec.encodeResponse(res, ctx) as { output: Array<Record<string, unknown>> };
    expect(out.output[0]).toMatchObject({ type: 'function_call', call_id: 'toolu_1', name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"message":"x"}' });
    expect(out.output[1]).not.toHaveProperty('namespace');
  });

  it('streamed: output_item.added/.done, function_call_arguments.done and the final output carry it', () => {
    const enc = responsesCodec.createStreamEncoder(ctx);
    const events: HubEvent[] = [
      { type: 'start', id: 'msg_1' },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'toolu_1', name: 'spawn_agent', namespace: 'multi_agent_v1' } },
      { type: 'arguments_delta', index: 0, json: '{"message":' },
      { type: 'arguments_delta', index: 0, json: '"x"}' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'toolu_2', name: 'shell' } },
      { type: 'block_stop', index: 1 },
      { type: 'finish', stopReason: 'tool_use' },
    ];
    const wire: Array<Record<string, unknown>> = [];
    const parser = new SseParser((ev) => wire.push(JSON.parse(ev.data) as Record<string, unknown>));
    parser.push(Buffer.from(events.map((e) => enc.encode(e)).join('')));
    parser.end();
    const of = (type: string) => wire.filter((w) => w.type === type);
    const expected = { type: 'function_call', call_id: 'toolu_1', name: 'spawn_agent', namespace: 'multi_agent_v1' };
    expect(of('response.output_item.added')[0]!.item).toMatchObject({ ...expected, arguments: '' });
    expect(of('response.output_item.done')[0]!.item).toMatchObject({ ...expected, arguments: '{"message":"x"}' });
    expect(of('response.function_call_arguments.done')[0]).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1', arguments: '{"message":"x"}' });
    expect(of('response.function_call_arguments.done')[1]).not.toHaveProperty('namespace');
    expect(of('response.output_item.added')[1]!.item).not.toHaveProperty('namespace');
    const final = (of('response.completed')[0]!.response as { output: unknown[] }).output;
    expect(final[0]).toMatchObject({ ...expected, arguments: '{"message":"x"}' });
  });

  it('a Responses upstream that answers with a namespace keeps it (non-streamed and streamed)', () => {
    const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', namespace: 'multi_agent_v1', name: 'wait', arguments: '{}', status: 'completed' };
    const res = responsesCodec.decodeResponse({ id: 'resp_1', object: 'response', status: 'completed', model: 'gpt-5.4', output: [item] });
    expect(res.output[0]).toEqual({ type: 'function_call', callId: 'call_1', namespace: 'multi_agent_v1', name: 'wait', arguments: '{}' });
    const dec = responsesCodec.createStreamDecoder();
    const evs = dec.push({ event: 'response.output_item.added', data: JSON.stringify({ type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } }) });
    expect(evs.find((e) => e.type === 'block_start')).toMatchObject({ block: { type: 'function_call', callId: 'call_1', name: 'wait', namespace: 'multi_agent_v1' } });
  });
});
