/**
 * Property tests: no JSON input makes the Chat codec throw anything but a ProtocolError — not
 * arbitrary values, not valid requests with one field mutated, not upstream garbage.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import type { EncodeRequestOptions } from '../../../src/protocols/codec.js';
import { mutatedSamples, onlyProtocolErrors } from '../shared/helpers.js';
import { goldenFiles } from './helpers.js';

const validRequests = goldenFiles('request-decode').map((g) => g.data.input as Record<string, unknown>);
const validResponses = goldenFiles('response-decode').map((g) => g.data.input as Record<string, unknown>);

const mutated = (samples: ReadonlyArray<unknown>) => mutatedSamples(samples);

const OPTS: EncodeRequestOptions[] = [
  { replayReasoning: ['unsigned'] },
  { replayReasoning: ['openrouter', 'anthropic', 'anthropic_redacted', 'openai', 'unsigned'], systemRole: 'developer', thoughtSignatures: true, keepCacheControl: true, maxTokensField: 'max_completion_tokens' },
];

describe('chat codec never throws anything but ProtocolError', () => {
  it('decodeRequest on arbitrary JSON values', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => onlyProtocolErrors(() => chatCodec.decodeRequest(v))), { numRuns: 1500 });
  });

  it('decodeRequest on arbitrary objects with a model and messages', () => {
    const body = fc.record({ model: fc.string(), messages: fc.array(fc.dictionary(fc.constantFrom('role', 'content', 'tool_calls', 'tool_call_id', 'name', 'reasoning_details', 'thinking_blocks', 'refusal', '__proto__'), fc.jsonValue())) }, { requiredKeys: [] });
    fc.assert(fc.property(body, (v) => onlyProtocolErrors(() => chatCodec.decodeRequest(v))), { numRuns: 800 });
  });

  it('decodeRequest on valid requests with one mutation, and encodeRequest of whatever decodes', () => {
    fc.assert(
      fc.property(mutated(validRequests), (v) =>
        onlyProtocolErrors(() => {
          const hub = chatCodec.decodeRequest(v);
          for (const opts of OPTS) JSON.stringify(chatCodec.encodeRequest(hub, opts));
        }),
      ),
      { numRuns: 3000 },
    );
  });

  it('decodeResponse on arbitrary and mutated upstream bodies; encodeResponse of whatever decodes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), mutated(validResponses)), (v) =>
        onlyProtocolErrors(() => {
          const hub = chatCodec.decodeResponse(v);
          JSON.stringify(chatCodec.encodeResponse(hub, { model: 'x/y', created: 1 }));
        }),
      ),
      { numRuns: 2000 },
    );
  });

  it('the stream decoder never throws on arbitrary chunk data and always ends with one terminal event', () => {
    const chunkData = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      mutated(validResponses.map((r) => ({ ...r, choices: [{ index: 0, delta: (r.choices as Array<{ message: unknown }>)[0]?.message }] }))).map((v) => JSON.stringify(v)),
      fc.string(),
      fc.constant('[DONE]'),
    );
    fc.assert(
      fc.property(fc.array(chunkData, { maxLength: 12 }), (datas) => {
        const d = chatCodec.createStreamDecoder();
        const enc = chatCodec.createStreamEncoder({ model: 'x', created: 1, includeUsage: true });
        const events = datas.flatMap((data) => d.push({ data })).concat(d.end());
        const terminal = events.filter((e) => e.type === 'finish' || e.type === 'error');
        expect(terminal).toHaveLength(1);
        expect(events.at(-1)).toBe(terminal[0]);
        for (const e of events) enc.encode(e);
      }),
      { numRuns: 1500 },
    );
  });
});
