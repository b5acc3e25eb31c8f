/** Anthropic's context editing applied to a converted Messages request (context-edits.ts). */
import { describe, expect, it } from 'vitest';
import type { FunctionCallItem, FunctionCallOutputItem, HubRequest } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { CLEARED_TOOL_RESULT } from '../../../src/protocols/messages/context-edits.js';
import { ProtocolError } from '../../../src/protocols/errors.js';

/** A conversation of `n` tool uses (read_N of tool `names[i % names.length]`), each answered with `result(i)`. */
function conversation(n: number, names = ['read'], result = (i: number) => `contents of file ${i} `.repeat(10)) {
  const messages: unknown[] = [{ role: 'user', content: 'Go through the files.' }];
  for (let i = 0; i < n; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name: names[i % names.length], input: { path: `f${i}.ts` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: result(i) }] });
  }
  return messages;
}
const decode = (messages: unknown[], context_management?: unknown): HubRequest =>
  messagesCodec.decodeRequest({ model: 'openai/gpt-5.4', max_tokens: 100, messages, context_management });
const outputs = (hub: HubRequest) => hub.items.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output').map((i) => (i.output === CLEARED_TOOL_RESULT ? 'cleared' : 'kept'));
const args = (hub: HubRequest) => hub.items.filter((i): i is FunctionCallItem => i.type === 'function_call').map((i) => i.arguments);
const clear = (extra: Record<string, unknown> = {}) => ({ edits: [{ type: 'clear_tool_uses_20250919', ...extra }] });

describe('clear_tool_uses_20250919 on a converted request', () => {
  it('without context_management nothing changes and nothing is reported; with edits that do not trigger, an empty report', () => {
    const none = decode(conversation(5));
    expect(none.contextEdits).toBeUndefined();
    expect(outputs(none)).toEqual(['kept', 'kept', 'kept', 'kept', 'kept']);
    // the default trigger is 100,000 input tokens: far off
    const quiet = decode(conversation(5), clear());
    expect(quiet.contextEdits).toEqual([]);
    expect(outputs(quiet)).toEqual(['kept', 'kept', 'kept', 'kept', 'kept']);
  });

  it('past the trigger every result but the last `keep` tool uses is cleared, oldest first; the report counts them', () => {
    const hub = decode(conversation(5), clear({ trigger: { type: 'tool_uses', value: 3 }, keep: { type: 'tool_uses', value: 2 } }));
    expect(outputs(hub)).toEqual(['cleared', 'cleared', 'cleared', 'kept', 'kept']);
    const perResult = Math.ceil('contents of file 0 '.repeat(10).length / 4);
    expect(hub.contextEdits).toEqual([{ type: 'clear_tool_uses_20250919', clearedToolUses: 3, clearedInputTokens: 3 * perResult }]);
    // the calls themselves stay as they were
    expect(args(hub)).toEqual([0, 1, 2, 3, 4].map((i) => JSON.stringify({ path: `f${i}.ts` })));
    // at the trigger, not past it: nothing
    expect(decode(conversation(3), clear({ trigger: { type: 'tool_uses', value: 3 } })).contextEdits).toEqual([]);
  });

  it('the default trigger counts the prompt: a conversation over 100,000 tokens keeps its last 3 tool uses', () => {
    const hub = decode(conversation(6, ['read'], (i) => `${i}`.repeat(80_000)), clear());
    expect(outputs(hub)).toEqual(['cleared', 'cleared', 'cleared', 'kept', 'kept', 'kept']);
    expect(hub.contextEdits![0]).toMatchObject({ clearedToolUses: 3, clearedInputTokens: 60_000 });
  });

  it('exclude_tools are never cleared; clear_tool_inputs clears the inputs of all calls cleared, or of the tools named', () => {
    const many = conversation(6, ['read', 'memory']);
    const excluded = decode(many, clear({ trigger: { type: 'tool_uses', value: 0 }, keep: { type: 'tool_uses', value: 0 }, exclude_tools: ['memory'] }));
    expect(outputs(excluded)).toEqual(['cleared', 'kept', 'cleared', 'kept', 'cleared', 'kept']);
    expect(excluded.contextEdits![0]!.clearedToolUses).toBe(3);
    const inputsToo = decode(many, clear({ trigger: { type: 'tool_uses', value: 0 }, keep: { type: 'tool_uses', value: 4 }, clear_tool_inputs: true }));
    expect(args(inputsToo)).toEqual(['{}', '{}', ...[2, 3, 4, 5].map((i) => JSON.stringify({ path: `f${i}.ts` }))]);
    const named = decode(many, clear({ trigger: { type: 'tool_uses', value: 0 }, keep: { type: 'tool_uses', value: 4 }, clear_tool_inputs: ['memory'] }));
    expect(args(named).slice(0, 2)).toEqual([JSON.stringify({ path: 'f0.ts' }), '{}']);
  });

  it('clear_at_least: nothing is cleared when it would clear fewer input tokens', () => {
    const small = decode(conversation(5), clear({ trigger: { type: 'tool_uses', value: 0 }, clear_at_least: { type: 'input_tokens', value: 1_000_000 } }));
    expect(small.contextEdits).toEqual([]);
    expect(outputs(small)).toEqual(['kept', 'kept', 'kept', 'kept', 'kept']);
  });

  it('other edits (thinking, compaction, ones not known yet) are left alone and not reported', () => {
    const hub = decode(conversation(5), { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }, { type: 'compact_20260112' }, { type: 'clear_tool_uses_20250919', trigger: { type: 'tool_uses', value: 1 } }] });
    expect(hub.contextEdits).toEqual([expect.objectContaining({ type: 'clear_tool_uses_20250919', clearedToolUses: 2 })]);
  });

  it('a malformed edit is a 400 invalid_request naming the field', () => {
    const refused = (cm: unknown) => {
      try {
        decode(conversation(2), cm);
      } catch (err) {
        expect(err).toBeInstanceOf(ProtocolError);
        return [(err as ProtocolError).code, (err as ProtocolError).param];
      }
      throw new Error('no refusal');
    };
    expect(refused('x')).toEqual(['invalid_request', 'context_management']);
    expect(refused({ edits: {} })).toEqual(['invalid_request', 'context_management.edits']);
    expect(refused({ edits: [7] })).toEqual(['invalid_request', 'context_management.edits[0]']);
    expect(refused(clear({ trigger: { type: 'messages', value: 3 } }))).toEqual(['invalid_request', 'context_management.edits[0].trigger']);
    expect(refused(clear({ keep: { type: 'tool_uses', value: -1 } }))).toEqual(['invalid_request', 'context_management.edits[0].keep']);
    expect(refused(clear({ exclude_tools: 'memory' }))).toEqual(['invalid_request', 'context_management.edits[0].exclude_tools']);
    expect(refused(clear({ clear_tool_inputs: 'yes' }))).toEqual(['invalid_request', 'context_management.edits[0].clear_tool_inputs']);
  });
});

describe('the answer reports the edits applied', () => {
  const edits = [{ type: 'clear_tool_uses_20250919' as const, clearedToolUses: 3, clearedInputTokens: 120 }];
  const wire = { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 3, cleared_input_tokens: 120 }] };
  const res = { id: 'x', model: 'm', output: [{ type: 'message' as const, role: 'assistant' as const, content: [{ type: 'text' as const, text: 'Hi' }] }], stopReason: 'end_turn' as const, usage: { inputTokens: 10, outputTokens: 2 } };

  it('whole: context_management on the message, only when the request asked for edits', () => {
    expect(messagesCodec.encodeResponse(res, { model: 'openai/gpt-5.4', contextEdits: edits }).context_management).toEqual(wire);
    expect(messagesCodec.encodeResponse(res, { model: 'openai/gpt-5.4', contextEdits: [] }).context_management).toEqual({ applied_edits: [] });
    expect(messagesCodec.encodeResponse(res, { model: 'openai/gpt-5.4' })).not.toHaveProperty('context_management');
  });

  it('streamed: on the message_delta event', () => {
    const enc = messagesCodec.createStreamEncoder({ model: 'openai/gpt-5.4', contextEdits: edits });
    const sse = [enc.encode({ type: 'start', id: 'x', model: 'm' }), enc.encode({ type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 2 } })].join('');
    const delta = sse.split('\n').find((l) => l.startsWith('data: ') && l.includes('"message_delta"'))!;
    expect(JSON.parse(delta.slice(6)).context_management).toEqual(wire);
  });
});
