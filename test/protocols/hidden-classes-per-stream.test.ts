/**
 * Objects a stream decoder or encoder makes once per stream or per event share their hidden
 * classes across streams (shared/hidden-classes.ts). In a process of its own (vitest.config.ts), as
 * hidden-classes.test.ts is.
 */
import { describe, expect, it, vi } from 'vitest';
import type { HubEvent } from '../../src/protocols/hub.js';
import { mergeCounts, readCounts } from '../../src/protocols/messages/usage.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { AnswerAssembler } from '../../src/protocols/stream-answer.js';
import { mapsNewPerCall } from './shared/hidden-classes.js';

describe('messages stream decoder: merged usage counts', () => {
  it('share one hidden class when message_delta brings counts message_start lacked', () => {
    // a gateway's message_start without cache counts, then its message_delta with them
    const merged = () => mergeCounts(readCounts({ input_tokens: 250, output_tokens: 1 }), readCounts({ output_tokens: 9, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 }));
    expect(merged()).toEqual({ input: 250, cacheWrite: 0, cacheRead: 100, output: 9 });
    expect(mapsNewPerCall(merged)).toEqual([]);
  });
});

describe('responses stream encoder: event payloads', () => {
  it('share their hidden classes across streams, a namespaced call (Codex multi_agent_v1) included', () => {
    const events: HubEvent[] = [
      { type: 'start', id: 'msg_1', model: 'claude-sonnet-4-5' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Spawning.' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'toolu_1', name: 'spawn_agent', namespace: 'multi_agent_v1' } },
      { type: 'arguments_delta', index: 1, json: '{"message":"x"}' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', stopReason: 'tool_use', usage: { inputTokens: 10, outputTokens: 5 } },
    ];
    // the payloads as the encoder builds them, before its emit copies them into the SSE event
    const proto = Object.getPrototypeOf(responsesCodec.createStreamEncoder({ model: 'm', created: 1 })) as { emit(payload: unknown): string };
    const emit = vi.spyOn(proto, 'emit');
    const payloads = (): unknown[] => {
      emit.mockClear();
      const enc = responsesCodec.createStreamEncoder({ model: 'm', created: 1 });
      for (const ev of events) enc.encode(ev);
      return emit.mock.calls.map(([payload]) => payload);
    };
    try {
      expect(payloads().map((p) => (p as { type: string }).type)).toContain('response.function_call_arguments.done');
      expect(mapsNewPerCall(payloads)).toEqual([]);
    } finally {
      emit.mockRestore();
    }
  });
});

describe('a stream folded into a whole answer', () => {
  it("shares the usage's hidden class when the stream stated only one of the two required counts", () => {
    const answer = () => {
      const assembler = new AnswerAssembler();
      assembler.push({ type: 'start', id: 'chatcmpl-1', model: 'local-model' });
      assembler.push({ type: 'finish', stopReason: 'end_turn', usage: { outputTokens: 12, reasoningTokens: 4 } });
      return assembler.result('local-model');
    };
    expect(answer()).toMatchObject({ usage: { inputTokens: 0, outputTokens: 12, reasoningTokens: 4 } });
    expect(mapsNewPerCall(answer)).toEqual([]);
  });
});
