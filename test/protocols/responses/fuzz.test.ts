/**
 * Property tests: no input makes the Responses codec throw anything but a clean ProtocolError,
 * and the stream decoder/encoder never throw at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { mutatedSamples, onlyProtocolErrors } from '../shared/helpers.js';
import { fixtureNames, jsonFixture } from './fixtures.js';

type Json = unknown;

const validRequests = fixtureNames('request-decode').map((n) => jsonFixture<{ request: Json }>('request-decode', `${n}.json`).request);

describe('responses codec never throws anything but ProtocolError', () => {
  it('decodeRequest on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), (body) => onlyProtocolErrors(() => responsesCodec.decodeRequest(body))), { numRuns: 1500 });
  });

  it('decodeRequest on arbitrary objects with the right top-level keys', () => {
    const keys = ['model', 'input', 'instructions', 'tools', 'tool_choice', 'text', 'reasoning', 'metadata', 'max_output_tokens', 'temperature', 'top_p', 'stream', 'previous_response_id', 'background', 'user', 'safety_identifier', 'parallel_tool_calls'];
    const arb = fc.dictionary(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 4 }));
    fc.assert(fc.property(arb, (body) => onlyProtocolErrors(() => responsesCodec.decodeRequest(body))), { numRuns: 1500 });
  });

  it('decodeRequest (and then encodeRequest) on mutated valid requests', () => {
    const arb = mutatedSamples(validRequests);
    fc.assert(
      fc.property(arb, (body) =>
        onlyProtocolErrors(() => {
          const hub = responsesCodec.decodeRequest(body);
          responsesCodec.encodeRequest(hub, { replayReasoning: ['openai'] });
        }),
      ),
      { numRuns: 3000 },
    );
  });

  it('decodeResponse on arbitrary and mutated bodies', () => {
    const valid = fixtureNames('response-decode').map((n) => jsonFixture<{ body: Json }>('response-decode', `${n}.json`).body);
    const mutated = mutatedSamples(valid);
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), mutated), (body) => onlyProtocolErrors(() => responsesCodec.decodeResponse(body))), { numRuns: 2000 });
  });

  it('the stream decoder never throws, whatever the upstream sends', () => {
    const types = [
      'response.created', 'response.output_item.added', 'response.output_item.done', 'response.content_part.added', 'response.content_part.done',
      'response.output_text.delta', 'response.output_text.done', 'response.refusal.delta', 'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done', 'response.reasoning_text.delta',
      'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.completed', 'response.incomplete',
      'response.failed', 'error',
    ];
    const event = fc.oneof(
      fc.string().map((data) => ({ data })),
      fc.record({ type: fc.constantFrom(...types), output_index: fc.oneof(fc.nat(3), fc.jsonValue()), content_index: fc.nat(2), summary_index: fc.nat(2), item: fc.jsonValue(), part: fc.jsonValue(), delta: fc.oneof(fc.string(), fc.jsonValue()), text: fc.jsonValue(), response: fc.jsonValue(), arguments: fc.jsonValue() }, { requiredKeys: ['type'] }).map((o) => ({ data: JSON.stringify(o) })),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const decoder = responsesCodec.createStreamDecoder();
        const out: HubEvent[] = [];
        for (const e of events) out.push(...decoder.push(e));
        out.push(...decoder.end());
        // Always exactly one terminal event, and it is last.
        const terminal = out.filter((e) => e.type === 'finish' || e.type === 'error');
        expect(terminal).toHaveLength(1);
        expect(out.at(-1)).toBe(terminal[0]);
      }),
      { numRuns: 1500 },
    );
  });

  it('the stream encoder never throws and always writes valid named JSON events', () => {
    const idx = fc.nat(3);
    const text = fc.string();
    const hubEvent: fc.Arbitrary<HubEvent> = fc.oneof(
      fc.constant<HubEvent>({ type: 'start' }),
      idx.chain((index) =>
        fc.constantFrom<HubEvent>(
          { type: 'block_start', index, block: { type: 'text' } },
          { type: 'block_start', index, block: { type: 'refusal' } },
          { type: 'block_start', index, block: { type: 'reasoning' } },
          { type: 'block_start', index, block: { type: 'function_call', callId: `c${index}`, name: 'f' } },
          { type: 'block_stop', index },
          { type: 'reasoning_origin', index, origin: { kind: 'unsigned' } },
        ),
      ),
      fc.tuple(idx, text).map(([index, t]): HubEvent => ({ type: 'text_delta', index, text: t })),
      fc.tuple(idx, text).map(([index, t]): HubEvent => ({ type: 'reasoning_delta', index, text: t })),
      fc.tuple(idx, text).map(([index, t]): HubEvent => ({ type: 'arguments_delta', index, json: t })),
      fc.tuple(idx, text).map(([index, t]): HubEvent => ({ type: 'refusal_delta', index, text: t })),
      fc.constantFrom<HubEvent>({ type: 'finish', stopReason: 'end_turn' }, { type: 'finish', stopReason: 'max_tokens' }, { type: 'usage', usage: { inputTokens: 1 } }),
      fc.constant<HubEvent>({ type: 'error', error: { status: 500, code: 'upstream_error', message: 'x' } }),
    );
    fc.assert(
      fc.property(fc.array(hubEvent, { maxLength: 25 }), (events) => {
        const enc = responsesCodec.createStreamEncoder({ model: 'p/m', created: 1, idSuffix: 'F' });
        const sse = events.map((e) => enc.encode(e)).join('');
        let seq = 0;
        for (const chunk of sse.split('\n\n').filter(Boolean)) {
          const [eventLine, dataLine, ...rest] = chunk.split('\n');
          expect(rest).toEqual([]);
          const data = JSON.parse(dataLine!.slice('data: '.length)) as { type: string; sequence_number: number };
          expect(eventLine).toBe(`event: ${data.type}`);
          expect(data.sequence_number).toBe(seq++);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
