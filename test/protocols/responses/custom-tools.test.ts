/**
 * Freeform (custom tool) calls as a Responses client sees them: a `custom_tool_call` item with its
 * input text, non-streamed and streamed (output_item.added, custom_tool_call_input.delta/.done,
 * output_item.done, and the item in response.completed).
 */
import { describe, expect, it } from 'vitest';
import type { HubEvent, HubResponse } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { parseSseEvents } from '../shared/helpers.js';

const ctx = { model: 'anthropic/claude-sonnet-4-5', created: 1, idSuffix: 'S' };
const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+hi 😀\n*** End Patch';

function wireEvents(events: HubEvent[]): Array<Record<string, unknown>> {
  const enc = responsesCodec.createStreamEncoder(ctx);
  return parseSseEvents([Buffer.from(events.map((e) => enc.encode(e)).join(''))]).map((ev) => {
    const data = JSON.parse(ev.data) as Record<string, unknown>;
    // every event is named after its type (the SDK reads `type`, others the event line)
    expect(ev.event).toBe(data.type);
    return data;
  });
}

describe('freeform calls for a Responses client', () => {
  it('non-streamed: a custom_tool_call item (ctc_ id) with the input text; plain calls stay function_call', () => {
    const res: HubResponse = {
      id: 'msg_1',
      model: 'claude-sonnet-4-5',
      stopReason: 'tool_use',
      output: [
        { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Patching.' }] },
        { type: 'function_call', callId: 'toolu_1', name: 'apply_patch', arguments: PATCH, freeform: true },
        { type: 'function_call', callId: 'toolu_2', name: 'spawn', namespace: 'agents', arguments: 'go', freeform: true },
        { type: 'function_call', callId: 'toolu_3', name: 'shell', arguments: '{"cmd":"ls"}' },
      ],
    };
    const out = responsesCodec.encodeResponse(res, ctx) as { output: Array<Record<string, unknown>>; status: string };
    expect(out.status).toBe('completed');
    expect(out.output[1]).toEqual({ id: 'ctc_S_1', type: 'custom_tool_call', call_id: 'toolu_1', name: 'apply_patch', input: PATCH, status: 'completed' });
    expect(out.output[2]).toEqual({ id: 'ctc_S_2', type: 'custom_tool_call', call_id: 'toolu_2', name: 'spawn', namespace: 'agents', input: 'go', status: 'completed' });
    expect(out.output[3]).toMatchObject({ id: 'fc_S_3', type: 'function_call', arguments: '{"cmd":"ls"}' });
  });

  it('streamed: added (empty input), input deltas, input done, item done, and the item in response.completed', () => {
    const wire = wireEvents([
      { type: 'start', id: 'msg_1' },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'toolu_1', name: 'apply_patch', freeform: true } },
      { type: 'arguments_delta', index: 0, json: '*** Begin Patch\n' },
      { type: 'arguments_delta', index: 0, json: PATCH.slice('*** Begin Patch\n'.length) },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'toolu_2', name: 'shell' } },
      { type: 'arguments_delta', index: 1, json: '{}' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', stopReason: 'tool_use' },
    ]);
    const types = wire.map((w) => w.type);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(wire.map((w) => w.sequence_number)).toEqual(wire.map((_, i) => i));
    const item = { id: 'ctc_S_0', type: 'custom_tool_call', call_id: 'toolu_1', name: 'apply_patch' };
    expect(wire[2]).toMatchObject({ output_index: 0, item: { ...item, input: '', status: 'in_progress' } });
    expect(wire[3]).toEqual({ type: 'response.custom_tool_call_input.delta', sequence_number: 3, item_id: 'ctc_S_0', output_index: 0, delta: '*** Begin Patch\n' });
    const deltas = wire.filter((w) => w.type === 'response.custom_tool_call_input.delta').map((w) => w.delta as string);
    expect(deltas.join('')).toBe(PATCH);
    expect(wire[5]).toEqual({ type: 'response.custom_tool_call_input.done', sequence_number: 5, item_id: 'ctc_S_0', output_index: 0, input: PATCH });
    expect(wire[6]).toMatchObject({ output_index: 0, item: { ...item, input: PATCH, status: 'completed' } });
    expect(wire[7]).toMatchObject({ item: { id: 'fc_S_1', type: 'function_call' } });
    const final = (wire[11]!.response as { output: unknown[] }).output;
    expect(final[0]).toEqual({ ...item, input: PATCH, status: 'completed' });
  });

  it('streamed and cut short: the open custom call ends incomplete with what it had', () => {
    const wire = wireEvents([
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: 'apply_patch', namespace: 'ns', freeform: true } },
      { type: 'arguments_delta', index: 0, json: '*** Begin' },
      { type: 'finish', stopReason: 'max_tokens' },
    ]);
    expect(wire.find((w) => w.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: '*** Begin' });
    const last = wire[wire.length - 1]!;
    expect(last.type).toBe('response.incomplete');
    expect((last.response as { output: unknown[] }).output[0]).toEqual({ id: 'ctc_S_0', type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', namespace: 'ns', input: '*** Begin', status: 'incomplete' });
  });
});
