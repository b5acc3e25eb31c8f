import { describe, expect, it } from 'vitest';
import type { ResponseContext } from '../../../src/protocols/codec.js';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';
import { jsonFixture } from './fixtures.js';
import { decodeChunks as replay, textBlockEvents } from '../shared/helpers.js';

type Wire = Record<string, unknown> & { type: string; sequence_number: number };

function encodeAll(events: HubEvent[], ctx: ResponseContext = { model: 'p/m', created: 1, idSuffix: 'S' }): { sse: string; wire: Wire[] } {
  const enc = responsesCodec.createStreamEncoder(ctx);
  const sse = events.map((e) => enc.encode(e)).join('');
  const parsed: SseEvent[] = [];
  const parser = new SseParser((ev) => parsed.push(ev));
  parser.push(Buffer.from(sse));
  parser.end();
  const wire = parsed.map((ev) => {
    const data = JSON.parse(ev.data) as Wire;
    // Every event is named, and the name is the type inside.
    expect(ev.event).toBe(data.type);
    return data;
  });
  return { sse, wire };
}

/** Invariants every Responses stream we emit must hold. */
function checkSequence(wire: Wire[]): void {
  expect(wire.map((w) => w.sequence_number)).toEqual(wire.map((_, i) => i));
  expect(wire[0]?.type).toBe('response.created');
  expect(wire[1]?.type).toBe('response.in_progress');
  const last = wire.at(-1)!;
  expect(['response.completed', 'response.incomplete', 'response.failed']).toContain(last.type);
  const added = wire.filter((w) => w.type === 'response.output_item.added');
  added.forEach((w, i) => expect(w.output_index).toBe(i));
  const finalOutput = (last.response as { output: Array<{ id: string }> }).output;
  expect(finalOutput).toHaveLength(added.length);
  for (const w of wire.filter((x) => x.type === 'response.output_item.done')) {
    expect(finalOutput[w.output_index as number]).toEqual(w.item);
  }
  // Item ids are unique and carry their dialect prefix.
  const ids = added.map((w) => (w.item as { id: string }).id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const id of ids) expect(id).toMatch(/^(msg|fc|rs)_/);
  for (const w of wire) expect(w).not.toHaveProperty('error', expect.anything() as unknown);
}

describe('responses stream encoder: golden fixture', () => {
  it('anthropic-tool-turn', () => {
    const fx = jsonFixture<{ ctx: ResponseContext; events: HubEvent[]; expected: Wire[] }>('stream-encode', 'anthropic-tool-turn.json');
    const { sse, wire } = encodeAll(fx.events, fx.ctx);
    expect(wire).toEqual(fx.expected);
    checkSequence(wire);
    // Wire format: `event:` line, one `data:` line, blank line — for every event.
    expect(sse).toMatch(/^(event: [a-z_.]+\ndata: [^\n]+\n\n)+$/);
  });
});

describe('responses stream encoder: sequences', () => {
  it('interleaved hub blocks keep output_index = position in the final output', () => {
    const { wire } = encodeAll([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'call_a', name: 'a' } },
      { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'call_b', name: 'b' } },
      { type: 'arguments_delta', index: 1, json: '{"y":' },
      { type: 'arguments_delta', index: 0, json: '{"x":1}' },
      { type: 'arguments_delta', index: 1, json: '2}' },
      { type: 'block_stop', index: 1 },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'tool_use', usage: { inputTokens: 3, outputTokens: 4 } },
    ]);
    checkSequence(wire);
    const last = wire.at(-1)!;
    expect(last.type).toBe('response.completed');
    expect((last.response as { output: unknown[] }).output).toEqual([
      { id: 'fc_S_0', type: 'function_call', call_id: 'call_a', name: 'a', arguments: '{"x":1}', status: 'completed' },
      { id: 'fc_S_1', type: 'function_call', call_id: 'call_b', name: 'b', arguments: '{"y":2}', status: 'completed' },
    ]);
    const deltas = wire.filter((w) => w.type === 'response.function_call_arguments.delta').map((w) => [w.output_index, w.delta]);
    expect(deltas).toEqual([
      [1, '{"y":'],
      [0, '{"x":1}'],
      [1, '2}'],
    ]);
  });

  it('max_tokens → response.incomplete, closing open items as incomplete', () => {
    const { wire } = encodeAll([
      { type: 'start', id: 'chatcmpl-1' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Once upon' },
      { type: 'finish', stopReason: 'max_tokens' },
    ]);
    checkSequence(wire);
    expect(wire.map((w) => w.type).slice(2)).toEqual([
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.incomplete',
    ]);
    const last = wire.at(-1)!.response as Record<string, unknown>;
    expect(last.status).toBe('incomplete');
    expect(last.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(last.output).toEqual([
      { id: 'msg_S_0', type: 'message', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: 'Once upon', annotations: [] }] },
    ]);
    expect(last.usage).toBeNull();
  });

  it('max_tokens after the last block stopped: that item is the one cut, incomplete in its done event and the final output, as the whole answer says', () => {
    const hubAnswer: HubEvent[] = [
      { type: 'start', id: 'chatcmpl-1' },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'call_1', name: 'get_weather' } },
      { type: 'arguments_delta', index: 0, json: '{"city":"Pa' },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'call_2', name: 'get_weather' } },
      { type: 'arguments_delta', index: 1, json: '{"city":"Ro' },
      { type: 'block_stop', index: 1 },
      { type: 'finish', stopReason: 'max_tokens' },
    ];
    const { wire } = encodeAll(hubAnswer);
    checkSequence(wire);
    const done = wire.filter((w) => w.type === 'response.output_item.done').map((w) => (w.item as { status: string }).status);
    expect(done).toEqual(['completed', 'incomplete']);
    const last = wire.at(-1)!.response as { output: Array<{ status: string }> };
    expect(last.output.map((o) => o.status)).toEqual(['completed', 'incomplete']);
    const whole = responsesCodec.encodeResponse(
      {
        id: 'chatcmpl-1',
        model: 'm',
        output: [
          { type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Pa' },
          { type: 'function_call', callId: 'call_2', name: 'get_weather', arguments: '{"city":"Ro' },
        ],
        stopReason: 'max_tokens',
      },
      { model: 'p/m', created: 1, idSuffix: 'S' },
    ) as { output: Array<{ status: string }> };
    expect(whole.output.map((o) => o.status)).toEqual(['completed', 'incomplete']);
  });

  it('error → error event then response.failed, nothing after', () => {
    const enc = responsesCodec.createStreamEncoder({ model: 'p/m', created: 1, idSuffix: 'E' });
    const parts = [
      enc.encode({ type: 'start' }),
      enc.encode({ type: 'block_start', index: 0, block: { type: 'text' } }),
      enc.encode({ type: 'text_delta', index: 0, text: 'Hal' }),
      enc.encode({ type: 'error', error: { status: 529, code: 'upstream_error', message: 'anthropic: Overloaded' } }),
      enc.encode({ type: 'text_delta', index: 0, text: 'lo' }),
      enc.encode({ type: 'finish', stopReason: 'end_turn' }),
    ];
    expect(parts.slice(4)).toEqual(['', '']);
    const { wire } = encodeAll([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Hal' },
      { type: 'error', error: { status: 529, code: 'upstream_error', message: 'anthropic: Overloaded' } },
    ]);
    checkSequence(wire);
    expect(wire.at(-2)).toEqual({ type: 'error', sequence_number: 5, code: 'upstream_error', message: 'anthropic: Overloaded', param: null });
    const failed = wire.at(-1)!.response as Record<string, unknown>;
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'upstream_error', message: 'anthropic: Overloaded' });
    expect(failed.output).toEqual([
      { id: 'msg_S_0', type: 'message', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: 'Hal', annotations: [] }] },
    ]);
  });

  it('starts by itself when the first event is not start, and an empty reasoning block has no summary part', () => {
    const { wire } = encodeAll([
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_origin', index: 0, origin: { kind: 'anthropic_redacted', data: 'xyz' } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'refusal' } },
      { type: 'refusal_delta', index: 1, text: 'No.' },
      { type: 'finish', stopReason: 'refusal' },
    ]);
    checkSequence(wire);
    expect(wire.some((w) => w.type.startsWith('response.reasoning_summary'))).toBe(false);
    const out = (wire.at(-1)!.response as { status: string; output: Array<Record<string, unknown>> });
    expect(out.status).toBe('completed');
    expect(out.output[0]).toMatchObject({ type: 'reasoning', id: 'rs_S_0', summary: [] });
    expect(String(out.output[0]!.encrypted_content)).toMatch(/^svcp1\./);
    expect(out.output[1]).toEqual({ id: 'msg_S_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'No.' }] });
    expect(wire.map((w) => w.type)).toContain('response.refusal.done');
  });

  it('reuses the upstream id suffix when no suffix is injected, and an openai origin keeps its native reasoning id', () => {
    const { wire } = encodeAll(
      [
        { type: 'start', id: 'msg_01ABC' },
        { type: 'block_start', index: 0, block: { type: 'reasoning', origin: { kind: 'openai', id: 'rs_native', encryptedContent: 'enc' } } },
        { type: 'reasoning_delta', index: 0, text: 'x' },
        { type: 'block_stop', index: 0 },
        { type: 'finish', stopReason: 'end_turn' },
      ],
      { model: 'p/m' },
    );
    expect((wire[0]!.response as { id: string }).id).toBe('resp_01ABC');
    expect(wire.at(-1)!.response).toMatchObject({ output: [{ type: 'reasoning', id: 'rs_native', encrypted_content: 'enc' }] });
  });
});

describe('responses stream encoder → decoder round trip', () => {
  it('the decoder reads back what the encoder wrote (origins via the envelope)', () => {
    const fx = jsonFixture<{ ctx: ResponseContext; events: HubEvent[] }>('stream-encode', 'anthropic-tool-turn.json');
    const { sse } = encodeAll(fx.events, fx.ctx);
    const back = replay(responsesCodec.createStreamDecoder(), [Buffer.from(sse)]);
    expect(back).toEqual([
      { type: 'start', id: 'resp_01XYZ', model: 'anthropic/claude-sonnet-4-5' },
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 0, text: 'Let me ' },
      { type: 'reasoning_delta', index: 0, text: 'check.' },
      { type: 'reasoning_origin', index: 0, origin: { kind: 'anthropic', signature: 'EqQBCkYIBxgCKkDsig' } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'Checking ☀' },
      { type: 'block_stop', index: 1 },
      { type: 'block_start', index: 2, block: { type: 'function_call', callId: 'toolu_01A', name: 'get_weather' } },
      { type: 'arguments_delta', index: 2, json: '{"city":' },
      { type: 'arguments_delta', index: 2, json: '"Paris"}' },
      { type: 'block_stop', index: 2 },
      { type: 'finish', stopReason: 'tool_use', usage: { inputTokens: 1200, outputTokens: 85, cacheReadTokens: 1000, cacheWriteTokens: 0, reasoningTokens: 0 } },
    ]);
  });
});

describe('a kept answer: store in the stream', () => {
  const events: HubEvent[] = [
    { type: 'start', id: 'u1', model: 'm' },
    { type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 1 } },
  ];
  const stores = (onFinal: () => boolean) => {
    const { wire } = encodeAll(events, { model: 'p/m', created: 1, idSuffix: 'S', kept: true, onFinal });
    return [wire[0]!, wire.at(-1)!].map((w) => (w.response as { store: boolean }).store);
  };

  it('says store: true from the start; the final event says false when the answer could not be kept after all', () => {
    expect(stores(() => true)).toEqual([true, true]);
    expect(stores(() => false)).toEqual([true, false]);
  });
});

describe('adjacent text blocks and their citations', () => {
  const page = { url: 'https://example.com/a', title: 'A page' };
  const texts: HubEvent[] = [{ type: 'start', id: 'u1', model: 'm' }, ...textBlockEvents([{ text: 'It is ' }, { text: 'so', citation: page }, { text: ' 🌍.' }])];
  const annotation = { type: 'url_citation', url: page.url, title: page.title, start_index: 6, end_index: 8 };

  it('are one message item with one output_text; a block’s citation annotates its stretch, added before the text is done', () => {
    const { wire } = encodeAll([...texts, { type: 'finish', stopReason: 'end_turn' }]);
    checkSequence(wire);
    expect(wire.filter((w) => w.type === 'response.output_item.added')).toHaveLength(1);
    const types = wire.map((w) => w.type);
    expect(types.slice(types.indexOf('response.output_text.annotation.added'))).toEqual([
      'response.output_text.annotation.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(wire.find((w) => w.type === 'response.output_text.annotation.added')).toMatchObject({ annotation_index: 0, content_index: 0, annotation });
    const final = wire.at(-1)!.response as { output: Array<{ status: string; content: unknown[] }> };
    expect(final.output).toEqual([expect.objectContaining({ status: 'completed', content: [{ type: 'output_text', text: 'It is so 🌍.', annotations: [annotation] }] })]);
  });

  it('the text item closes before anything else starts; it is incomplete when the answer was cut short in it, complete when the answer fails after it', () => {
    const call: HubEvent[] = [
      { type: 'block_start', index: 3, block: { type: 'function_call', callId: 'c1', name: 'f' } },
      { type: 'block_stop', index: 3 },
    ];
    const { wire } = encodeAll([...texts, ...call, { type: 'finish', stopReason: 'tool_use' }]);
    checkSequence(wire);
    const types = wire.map((w) => `${w.type}:${String(w.output_index ?? '')}`);
    expect(types.indexOf('response.output_item.done:0')).toBeLessThan(types.indexOf('response.output_item.added:1'));

    const cut = encodeAll([...texts, { type: 'finish', stopReason: 'max_tokens' }]).wire;
    expect((cut.at(-1)!.response as { status: string; output: Array<{ status: string }> }).output[0]!.status).toBe('incomplete');
    expect(cut.find((w) => w.type === 'response.output_item.done')!.item).toMatchObject({ status: 'incomplete' });
    expect(cut.at(-1)!.type).toBe('response.incomplete');

    const failed = encodeAll([...texts, { type: 'error', error: { status: 502, code: 'upstream_error', message: 'gone' } }]).wire;
    const failedTypes = failed.map((w) => w.type);
    expect(failedTypes.slice(-4)).toEqual(['response.content_part.done', 'response.output_item.done', 'error', 'response.failed']);
    expect((failed.at(-1)!.response as { output: Array<{ status: string }> }).output[0]!.status).toBe('completed');
  });

  it('a stream cut inside a cited block still annotates what it wrote', () => {
    const open: HubEvent[] = [
      { type: 'start', id: 'u1', model: 'm' },
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'citation', index: 0, citation: page },
      { type: 'text_delta', index: 0, text: 'Cut' },
      { type: 'finish', stopReason: 'max_tokens' },
    ];
    const { wire } = encodeAll(open);
    const item = (wire.at(-1)!.response as { output: Array<{ status: string; content: Array<{ annotations: unknown[] }> }> }).output[0]!;
    expect(item.status).toBe('incomplete');
    expect(item.content[0]!.annotations).toEqual([{ ...annotation, start_index: 0, end_index: 3 }]);
  });
});

describe('a call of a tool without parameters', () => {
  const call = (extra: HubEvent[], freeform?: true): HubEvent[] => [
    { type: 'start', id: 'msg_1' },
    { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'toolu_1', name: 'now', ...(freeform ? { freeform } : {}) } },
    ...extra,
    { type: 'block_stop', index: 0 },
    { type: 'finish', stopReason: 'tool_use' },
  ];

  it('says `{}` in its deltas, its done event, its item and the final output', () => {
    for (const extra of [[], [{ type: 'arguments_delta', index: 0, json: '' }]] as HubEvent[][]) {
      const { wire } = encodeAll(call(extra));
      checkSequence(wire);
      const deltas = wire.filter((w) => w.type === 'response.function_call_arguments.delta').map((w) => w.delta);
      expect(deltas.join('')).toBe('{}');
      expect(wire.find((w) => w.type === 'response.function_call_arguments.done')).toMatchObject({ arguments: '{}' });
      expect(wire.find((w) => w.type === 'response.output_item.done')?.item).toMatchObject({ type: 'function_call', arguments: '{}' });
      expect((wire.at(-1)!.response as { output: unknown[] }).output[0]).toMatchObject({ arguments: '{}' });
    }
  });

  it('keeps a freeform call’s empty input empty', () => {
    const { wire } = encodeAll(call([], true));
    expect(wire.find((w) => w.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: '' });
  });
});

