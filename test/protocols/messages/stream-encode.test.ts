import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HubEvent, ReasoningOrigin } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import type { ResponseContext } from '../../../src/protocols/codec.js';
import { omittedSignatureFor } from '../../../src/protocols/messages/thinking.js';
import { packOrigin, reasoningOfThinkingBlock } from '../../../src/protocols/reasoning-envelope.js';
import { decodeChunks, parseSseEvents, type Loose } from '../shared/helpers.js';

const ctx = { model: 'openrouter/x/y', idSuffix: 't' };

function encodeAll(events: HubEvent[], context: ResponseContext = ctx): string {
  const enc = messagesCodec.createStreamEncoder(context);
  return events.map((e) => enc.encode(e)).join('');
}

function sseEvents(text: string): Array<{ event?: string; data: Loose }> {
  return parseSseEvents([Buffer.from(text)]).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
}

describe('Messages stream encoder: regressions', () => {
  it('puts input tokens in message_start when the upstream told us at start (never 0)', () => {
    const out = sseEvents(encodeAll([{ type: 'start', id: 'msg_1', usage: { inputTokens: 1234, cacheReadTokens: 1000, cacheWriteTokens: 34 } }]));
    expect(out[0]!.data.message.usage).toMatchObject({ input_tokens: 200, cache_read_input_tokens: 1000, cache_creation_input_tokens: 34 });
  });

  it('puts input usage reported only at the end into message_delta', () => {
    const out = sseEvents(
      encodeAll([
        { type: 'start' },
        { type: 'text_delta', index: 0, text: 'x' },
        { type: 'usage', usage: { inputTokens: 77 } },
        { type: 'finish', stopReason: 'end_turn', usage: { outputTokens: 3 } },
      ]),
    );
    expect(out[0]!.data.message.usage.input_tokens).toBe(0);
    const delta = out.find((e) => e.event === 'message_delta')!;
    expect(delta.data.usage).toMatchObject({ input_tokens: 77, output_tokens: 3 });
  });

  it('leaves input fields null in message_delta when nobody knows them', () => {
    const out = sseEvents(encodeAll([{ type: 'start' }, { type: 'finish', stopReason: 'end_turn', usage: { outputTokens: 3 } }]));
    expect(out.find((e) => e.event === 'message_delta')!.data.usage).toMatchObject({ input_tokens: null, cache_read_input_tokens: null, output_tokens: 3 });
  });

  it('starts a text block without a citations key, as Anthropic does and as the whole answer has it', () => {
    const out = sseEvents(
      encodeAll([
        { type: 'start' },
        { type: 'block_start', index: 0, block: { type: 'text' } },
        { type: 'text_delta', index: 0, text: 'hi' },
        { type: 'block_stop', index: 0 },
        { type: 'finish', stopReason: 'end_turn' },
      ]),
    );
    expect(out.find((e) => e.event === 'content_block_start')!.data.content_block).toStrictEqual({ type: 'text', text: '' });
  });

  it('never turns reasoning into text', () => {
    const text = encodeAll([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 0, text: 'PRIVATE-THOUGHT' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
    const events = sseEvents(text);
    const withThought = events.filter((e) => JSON.stringify(e.data).includes('PRIVATE-THOUGHT'));
    expect(withThought).toEqual([{ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'PRIVATE-THOUGHT' } } }]);
    expect(events.some((e) => e.data.delta?.type === 'text_delta')).toBe(false);
  });

  it('drops a delta aimed at a block of another kind instead of mixing reasoning and text', () => {
    const events = sseEvents(
      encodeAll([
        { type: 'start' },
        { type: 'block_start', index: 0, block: { type: 'text' } },
        { type: 'reasoning_delta', index: 0, text: 'PRIVATE' },
        { type: 'text_delta', index: 0, text: 'visible' },
        { type: 'block_start', index: 1, block: { type: 'reasoning' } },
        { type: 'text_delta', index: 1, text: 'misrouted' },
        { type: 'arguments_delta', index: 1, json: '{}' },
        { type: 'finish', stopReason: 'end_turn' },
      ]),
    );
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data.delta);
    expect(deltas).toEqual([{ type: 'text_delta', text: 'visible' }]);
  });

  it('writes every event with an event: line matching its type', () => {
    const text = encodeAll([{ type: 'start' }, { type: 'text_delta', index: 0, text: 'a' }, { type: 'finish', stopReason: 'end_turn' }]);
    for (const e of sseEvents(text)) expect(e.event).toBe(e.data.type);
  });

  it('writes an upstream failure as event: error and nothing after it', () => {
    const enc = messagesCodec.createStreamEncoder(ctx);
    enc.encode({ type: 'start' });
    const err = enc.encode({ type: 'error', error: { status: 503, code: 'upstream_error', message: 'down' } });
    expect(sseEvents(err)).toEqual([{ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'down', code: 'upstream_error' } } }]);
    expect(enc.encode({ type: 'finish', stopReason: 'end_turn' })).toBe('');
  });

  it('does not show unsigned, empty reasoning at all', () => {
    const events = sseEvents(
      encodeAll([
        { type: 'start' },
        { type: 'block_start', index: 0, block: { type: 'reasoning', origin: { kind: 'unsigned' } } },
        { type: 'block_stop', index: 0 },
        { type: 'block_start', index: 1, block: { type: 'text' } },
        { type: 'text_delta', index: 1, text: 'answer' },
        { type: 'finish', stopReason: 'end_turn' },
      ]),
    );
    expect(events.filter((e) => e.event === 'content_block_start').map((e) => [e.data.index, e.data.content_block.type])).toEqual([[0, 'text']]);
  });
});

// -------------------------------------------------------------------------------------------------
// Property: whatever interleaving the hub produces, the client sees strictly sequential blocks with
// every byte of every block, in block order, and the SDK-relevant shape.
// -------------------------------------------------------------------------------------------------

type Spec =
  | { kind: 'text'; chunks: string[]; stop: boolean }
  | { kind: 'reasoning'; chunks: string[]; origin?: ReasoningOrigin; stop: boolean }
  | { kind: 'tool'; chunks: string[]; id: string; name: string; stop: boolean };

const chunk = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 });
const originArb: fc.Arbitrary<ReasoningOrigin | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant<ReasoningOrigin>({ kind: 'unsigned' }),
  fc.string({ minLength: 1, maxLength: 8 }).map((signature): ReasoningOrigin => ({ kind: 'anthropic', signature })),
  fc.constant<ReasoningOrigin>({ kind: 'openai', id: 'rs_1', encryptedContent: 'enc' }),
);
const specArb: fc.Arbitrary<Spec> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), chunks: fc.array(chunk, { maxLength: 5 }), stop: fc.boolean() }),
  fc.record({ kind: fc.constant('reasoning' as const), chunks: fc.array(chunk, { maxLength: 5 }), origin: originArb, stop: fc.boolean() }),
  fc.record({
    kind: fc.constant('tool' as const),
    chunks: fc.array(chunk, { maxLength: 5 }),
    id: fc.stringMatching(/^call_[a-z0-9]{1,6}$/),
    name: fc.stringMatching(/^[a-z_]{1,8}$/),
    stop: fc.boolean(),
  }),
);

/** Each block's own events (start, deltas, origin, stop), keyed by spec position. */
function blockEvents(spec: Spec, index: number): HubEvent[] {
  const evs: HubEvent[] = [];
  if (spec.kind === 'text') {
    evs.push({ type: 'block_start', index, block: { type: 'text' } });
    for (const text of spec.chunks) evs.push({ type: 'text_delta', index, text });
  } else if (spec.kind === 'reasoning') {
    evs.push({ type: 'block_start', index, block: { type: 'reasoning' } });
    for (const text of spec.chunks) evs.push({ type: 'reasoning_delta', index, text });
    if (spec.origin) evs.push({ type: 'reasoning_origin', index, origin: spec.origin });
  } else {
    evs.push({ type: 'block_start', index, block: { type: 'function_call', callId: spec.id, name: spec.name } });
    for (const json of spec.chunks) evs.push({ type: 'arguments_delta', index, json });
  }
  if (spec.stop) evs.push({ type: 'block_stop', index });
  return evs;
}

/** Interleave per-block sequences by `picks`, then renumber blocks in order of first appearance. */
function interleave(specs: Spec[], picks: number[]): { events: HubEvent[]; order: number[] } {
  const queues = specs.map((s, i) => blockEvents(s, i));
  const merged: HubEvent[] = [];
  let p = 0;
  for (;;) {
    const live = queues.map((q, i) => (q.length > 0 ? i : -1)).filter((i) => i >= 0);
    if (live.length === 0) break;
    const pick = live[(picks[p++ % Math.max(1, picks.length)] ?? 0) % live.length]!;
    merged.push(queues[pick]!.shift()!);
  }
  const order: number[] = [];
  const renumber = new Map<number, number>();
  const events = merged.map((e) => {
    if (e.type === 'block_start') {
      renumber.set(e.index, order.length);
      order.push(e.index);
    }
    return 'index' in e ? ({ ...e, index: renumber.get(e.index)! } as HubEvent) : e;
  });
  return { events, order };
}

function expectedClientBlocks(specs: Spec[], order: number[], omitThinking = false): Loose[] {
  const out: Loose[] = [];
  for (const i of order) {
    const s = specs[i]!;
    const joined = s.chunks.join('');
    if (s.kind === 'text') {
      if (joined !== '') out.push({ type: 'text', text: joined });
    } else if (s.kind === 'reasoning') {
      const origin = s.origin ?? { kind: 'unsigned' };
      if (joined === '' && origin.kind === 'unsigned') continue;
      if (omitThinking) out.push({ type: 'thinking', thinking: '', signature: omittedSignatureFor(origin, joined) });
      else out.push({ type: 'thinking', thinking: joined, signature: origin.kind === 'anthropic' ? origin.signature : packOrigin(origin) });
    } else out.push({ type: 'tool_use', id: s.id, name: s.name, json: joined });
  }
  return out;
}

/** Rebuild client blocks from the SSE text, asserting strict sequencing along the way. */
function clientBlocks(text: string): Loose[] {
  const events = sseEvents(text);
  expect(events[0]!.event).toBe('message_start');
  expect(events.at(-1)!.event).toBe('message_stop');
  expect(events.at(-2)!.event).toBe('message_delta');
  const blocks: Loose[] = [];
  let open: Loose | undefined;
  for (const { event, data } of events.slice(1, -2)) {
    expect(event).toBe(data.type);
    if (event === 'ping') continue;
    if (event === 'content_block_start') {
      expect(open).toBeUndefined();
      expect(data.index).toBe(blocks.length);
      const cb = data.content_block;
      open = cb.type === 'tool_use' ? { type: 'tool_use', id: cb.id, name: cb.name, json: '' } : cb.type === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
    } else if (event === 'content_block_delta') {
      expect(open).toBeDefined();
      expect(data.index).toBe(blocks.length);
      const d = data.delta;
      if (d.type === 'text_delta') open.text += d.text;
      else if (d.type === 'thinking_delta') open.thinking += d.thinking;
      else if (d.type === 'signature_delta') open.signature = d.signature;
      else if (d.type === 'input_json_delta') open.json += d.partial_json;
      else throw new Error(`unexpected delta ${d.type}`);
    } else if (event === 'content_block_stop') {
      expect(data.index).toBe(blocks.length);
      blocks.push(open);
      open = undefined;
    } else throw new Error(`unexpected event ${event}`);
  }
  expect(open).toBeUndefined();
  return blocks;
}

describe('Messages stream encoder: serialising interleaved blocks (property)', () => {
  it('keeps every byte of every block, in order, one block open at a time', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (specs, picks) => {
        const { events, order } = interleave(specs, picks);
        const all: HubEvent[] = [{ type: 'start', id: 'chatcmpl-1' }, ...events, { type: 'finish', stopReason: 'tool_use' }];
        const text = encodeAll(all);
        expect(clientBlocks(text)).toEqual(expectedClientBlocks(specs, order));
        // Our own decoder reads it back without error (and so would any strict Messages reader).
        const decoded = decodeChunks(messagesCodec.createStreamDecoder(), [Buffer.from(text)]);
        expect(decoded.at(-1)).toMatchObject({ type: 'finish', stopReason: 'tool_use' });
      }),
      { numRuns: 400 },
    );
  });
});

describe('Messages stream encoder: thinking display omitted', () => {
  const omit: ResponseContext = { ...ctx, omitThinking: true };

  it('keeps every block in order, thinking empty, its text only inside the signature where it is unsigned (property)', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (specs, picks) => {
        const { events, order } = interleave(specs, picks);
        const text = encodeAll([{ type: 'start', id: 'chatcmpl-1' }, ...events, { type: 'finish', stopReason: 'tool_use' }], omit);
        const blocks = clientBlocks(text);
        expect(blocks).toEqual(expectedClientBlocks(specs, order, true));
        expect(sseEvents(text).some((e) => e.data.delta?.type === 'thinking_delta')).toBe(false);
        // sent back, each block gives the reasoning the provider needs: unsigned text from the envelope
        const thinking = blocks.filter((b) => b.type === 'thinking');
        const specsShown = order.map((i) => specs[i]!).filter((sp) => sp.kind === 'reasoning' && !(sp.chunks.join('') === '' && (sp.origin ?? { kind: 'unsigned' }).kind === 'unsigned'));
        thinking.forEach((b, n) => {
          const sp = specsShown[n]!;
          const item = reasoningOfThinkingBlock(b.thinking, b.signature);
          const origin = (sp.kind === 'reasoning' && sp.origin) || { kind: 'unsigned' };
          expect(item.origin).toEqual(origin);
          if (origin.kind === 'unsigned') expect(item.text).toBe(sp.chunks.join(''));
        });
      }),
      { numRuns: 400 },
    );
  });

  it('opens the block at the first reasoning delta and pings every 32 deltas kept back', () => {
    const deltas: HubEvent[] = Array.from({ length: 70 }, (_, i) => ({ type: 'reasoning_delta', index: 0, text: `w${i} ` }));
    const enc = messagesCodec.createStreamEncoder(omit);
    const first = sseEvents(enc.encode({ type: 'start' }) + enc.encode({ type: 'block_start', index: 0, block: { type: 'reasoning' } }) + enc.encode(deltas[0]!));
    expect(first.map((e) => e.event)).toEqual(['message_start', 'content_block_start']);
    expect(first[1]!.data.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    const rest = sseEvents(deltas.slice(1).map((d) => enc.encode(d)).join(''));
    expect(rest.map((e) => e.event)).toEqual(['ping', 'ping']);
  });

  it('an OpenAI signature arriving at the end still proves the block; its summary text is not shown', () => {
    const origin: ReasoningOrigin = { kind: 'openai', id: 'rs_1', encryptedContent: 'enc' };
    const events = sseEvents(
      encodeAll(
        [
          { type: 'start' },
          { type: 'block_start', index: 0, block: { type: 'reasoning' } },
          { type: 'reasoning_delta', index: 0, text: 'SUMMARY-TEXT' },
          { type: 'reasoning_origin', index: 0, origin },
          { type: 'block_stop', index: 0 },
          { type: 'finish', stopReason: 'end_turn' },
        ],
        omit,
      ),
    );
    expect(JSON.stringify(events)).not.toContain('SUMMARY-TEXT');
    expect(events.find((e) => e.data.delta?.type === 'signature_delta')!.data.delta.signature).toBe(packOrigin(origin));
  });
});
