/**
 * Fuzzing what test/protocols/<dialect>/fuzz.test.ts does not: the cross-dialect hops routing
 * actually makes. Mutated real requests decoded in one dialect and encoded for every provider
 * adapter of the other two (with the adapter's own options and finalizeBody); mutated real upstream
 * answers rendered for every client dialect; and mutated real event streams — events dropped,
 * duplicated, swapped, retyped, bytes flipped, cut at random — pushed through the SSE parser, the
 * upstream decoder and every client encoder. Only ProtocolError may be thrown (decoders), nothing
 * by encoders; every stream ends with exactly one terminal event and valid SSE for the client.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DialectCodec } from '../../src/protocols/codec.js';
import { chatCodec } from '../../src/protocols/chat/index.js';
import { ProtocolError } from '../../src/protocols/errors.js';
import type { Dialect, HubEvent } from '../../src/protocols/hub.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { SseParser, type SseEvent } from '../../src/protocols/sse.js';
import { anthropicAdapter } from '../../src/providers/anthropic.js';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';
import { geminiAdapter } from '../../src/providers/gemini.js';
import { localAdapter } from '../../src/providers/local.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { openrouterAdapter } from '../../src/providers/openrouter.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { restoreResponseToolNames, shortenToolNames } from '../../src/routing/tool-names.js';
import { splitAt } from '../protocols/shared/helpers.js';
import { DIALECTS, mutate, mutatedFrom, oddValue, paths, requests, responses, streams, type Op } from './seeds.js';

const CODECS: Readonly<Record<Dialect, DialectCodec>> = { chat: chatCodec, responses: responsesCodec, messages: messagesCodec };
const ADAPTERS: readonly ProviderAdapter[] = [anthropicAdapter, customMessagesAdapter, openaiAdapter, openrouterAdapter, geminiAdapter, customChatAdapter, localAdapter];
const MODEL_FOR: Readonly<Record<string, string>> = { gemini: 'gemini-3-pro-preview', anthropic: 'claude-sonnet-4-5', openai: 'gpt-5.4' };

function onlyProtocolErrors(what: string, run: () => void): void {
  try {
    run();
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw new Error(`${what} threw ${(err as Error)?.name}: ${(err as Error)?.message}`, { cause: err });
    expect(err.status).toBeGreaterThanOrEqual(400);
    expect(err.status).toBeLessThan(600);
    expect(err.code).toMatch(/^[a-z_]+$/);
  }
}

// ---------------------------------------------------------------- SSE helpers

function parseSse(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  const p = new SseParser((e) => out.push(e));
  p.push(Buffer.from(text));
  p.end();
  return out;
}

function formatSse(events: SseEvent[]): string {
  return events.map((e) => `${e.event !== undefined ? `event: ${e.event}\n` : ''}data: ${e.data}\n\n`).join('');
}

type StreamEdit =
  | { kind: 'drop' | 'duplicate' | 'cut'; at: number }
  | { kind: 'swap'; at: number; with: number }
  | { kind: 'data'; at: number; pick: number; op: Op; value: unknown }
  | { kind: 'garbage'; at: number; text: string }
  | { kind: 'rename'; at: number; name: string };

const streamEdit: fc.Arbitrary<StreamEdit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('drop' as const, 'duplicate' as const, 'cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), with: fc.nat() }),
  fc.record({ kind: fc.constant('data' as const), at: fc.nat(), pick: fc.nat(), op: fc.constantFrom<Op>('replace', 'delete', 'wrap', 'stringify', 'duplicate'), value: oddValue }),
  fc.record({ kind: fc.constant('garbage' as const), at: fc.nat(), text: fc.string({ maxLength: 40 }) }),
  fc.record({
    kind: fc.constant('rename' as const),
    at: fc.nat(),
    name: fc.constantFrom('error', 'message_stop', 'message_delta', 'content_block_stop', 'response.completed', 'response.failed', 'response.output_item.done', 'ping', 'x'),
  }),
);

function applyStreamEdit(events: SseEvent[], e: StreamEdit): SseEvent[] {
  const out = events.map((x) => ({ ...x }));
  if (out.length === 0) return out;
  const i = e.at % out.length;
  switch (e.kind) {
    case 'drop':
      out.splice(i, 1);
      break;
    case 'duplicate':
      out.splice(i, 0, { ...out[i]! });
      break;
    case 'cut':
      out.length = i;
      break;
    case 'swap': {
      const j = e.with % out.length;
      [out[i], out[j]] = [out[j]!, out[i]!];
      break;
    }
    case 'data': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(out[i]!.data);
      } catch {
        out[i]!.data = JSON.stringify(e.value);
        break;
      }
      const all = paths(parsed);
      out[i]!.data = JSON.stringify(mutate(parsed, all[e.pick % all.length]!, e.op, e.value));
      break;
    }
    case 'garbage':
      out.splice(i, 0, { data: e.text });
      break;
    case 'rename':
      out[i]!.event = e.name;
      break;
  }
  return out;
}

type ByteEdit = { at: number; kind: 'flip' | 'insert' | 'delete'; byte: number };

/** Upstream bytes: edited events, then a few byte-level edits, then cut into random chunks. */
const upstreamChunks = (dialect: Dialect) =>
  fc
    .record({
      sample: fc.constantFrom(...streams[dialect]),
      edits: fc.array(streamEdit, { maxLength: 4 }),
      bytes: fc.array(fc.record({ at: fc.nat(), kind: fc.constantFrom<ByteEdit['kind']>('flip', 'insert', 'delete'), byte: fc.constantFrom(0x0a, 0x0d, 0x3a, 0x22, 0x7b, 0x7d, 0x00, 0xff, 0xe2, 0x20) }), { maxLength: 3 }),
      cuts: fc.array(fc.nat(), { maxLength: 8 }),
    })
    .map(({ sample, edits, bytes, cuts }) => {
      const events = edits.reduce(applyStreamEdit, parseSse(sample));
      const buf = [...Buffer.from(formatSse(events))];
      for (const b of bytes) {
        if (buf.length === 0) break;
        const i = b.at % buf.length;
        if (b.kind === 'flip') buf[i] = b.byte;
        else if (b.kind === 'insert') buf.splice(i, 0, b.byte);
        else buf.splice(i, 1);
      }
      const bytesOut = Buffer.from(buf);
      return splitAt(bytesOut, cuts.map((c) => (bytesOut.length === 0 ? 0 : c % bytesOut.length)));
    });

/** The checks a client's SSE must pass: Chat data lines are JSON or [DONE]; named events carry their own type. */
function expectValidClientSse(client: Dialect, text: string): void {
  const events = parseSse(text);
  expect(events.length).toBeGreaterThan(0);
  for (const e of events) {
    if (client === 'chat') {
      if (e.data === '[DONE]') continue;
      expect(() => JSON.parse(e.data)).not.toThrow();
      expect(e.event).toBeUndefined();
    } else {
      const data = JSON.parse(e.data) as { type?: string };
      expect(e.event).toBe(data.type);
    }
  }
  if (client === 'chat') expect(events.at(-1)!.data === '[DONE]' || 'error' in (JSON.parse(events.at(-1)!.data) as object)).toBe(true);
  if (client === 'messages') expect(['message_stop', 'error']).toContain(events.at(-1)!.event);
  if (client === 'responses') expect(['response.completed', 'response.incomplete', 'response.failed']).toContain(events.at(-1)!.event);
}

// ---------------------------------------------------------------- properties

describe('seeds', () => {
  it('the fixtures give samples of every kind for every dialect', () => {
    for (const d of DIALECTS) {
      expect(requests[d].length, `${d} requests`).toBeGreaterThan(3);
      expect(responses[d].length, `${d} responses`).toBeGreaterThan(3);
      expect(streams[d].length, `${d} streams`).toBeGreaterThan(3);
    }
  });
});

describe.each(DIALECTS)('requests from a %s client, converted for every other dialect\'s providers', (client) => {
  const targets = ADAPTERS.filter((a) => a.dialect !== client);
  it('mutated real requests: decode → shorten tool names → encode → finalizeBody throw only ProtocolError', () => {
    fc.assert(
      fc.property(mutatedFrom(requests[client]), fc.boolean(), (body, stream) => {
        let hub: ReturnType<DialectCodec['decodeRequest']>;
        try {
          hub = CODECS[client].decodeRequest(body);
        } catch (err) {
          onlyProtocolErrors(`${client} decodeRequest`, () => {
            throw err;
          });
          return;
        }
        shortenToolNames(hub);
        for (const adapter of targets) {
          onlyProtocolErrors(`${client} → ${adapter.dialect} (${adapter.highestEffort})`, () => {
            const model = adapter.normaliseModelId(MODEL_FOR[adapter === geminiAdapter ? 'gemini' : adapter === openaiAdapter ? 'openai' : 'anthropic']!);
            const out = CODECS[adapter.dialect].encodeRequest({ ...hub, model }, adapter.encodeOptions(model));
            out.model = model;
            adapter.finalizeBody(out, { model, effort: hub.reasoning?.effort, from: client, passthrough: false, stream });
            JSON.stringify(out);
          });
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe.each(DIALECTS)('answers of a %s upstream, rendered for every client', (upstream) => {
  it('mutated real answers: decode → encode for each client throw only ProtocolError', () => {
    fc.assert(
      fc.property(mutatedFrom(responses[upstream]), (body) => {
        let hub: ReturnType<DialectCodec['decodeResponse']>;
        try {
          hub = CODECS[upstream].decodeResponse(body);
        } catch (err) {
          onlyProtocolErrors(`${upstream} decodeResponse`, () => {
            throw err;
          });
          return;
        }
        restoreResponseToolNames(hub, new Map([['f_x', 'original']]));
        for (const client of DIALECTS.filter((d) => d !== upstream)) {
          const ctx = client === 'chat' ? { model: 'p/m', created: 1, includeUsage: true } : { model: 'p/m', created: 1 };
          // encoders must take whatever a decoder produced
          JSON.stringify(CODECS[client].encodeResponse(hub, ctx));
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe.each(DIALECTS)('event streams of a %s upstream, relayed to every client', (upstream) => {
  it('mutated real streams: parser → decoder → encoders never throw; one terminal event, last; valid SSE for the client', () => {
    fc.assert(
      fc.property(upstreamChunks(upstream), (chunks) => {
        const decoder = CODECS[upstream].createStreamDecoder();
        const events: HubEvent[] = [];
        const parser = new SseParser((ev) => {
          try {
            events.push(...decoder.push(ev));
          } catch (err) {
            // the relay turns a throwing decoder into a malformed-stream error; only ProtocolError is acceptable
            onlyProtocolErrors(`${upstream} decoder.push`, () => {
              throw err;
            });
            events.push({ type: 'error', error: { status: 502, code: 'upstream_invalid_response', message: String(err) } });
          }
        });
        for (const c of chunks) parser.push(c);
        parser.end();
        events.push(...decoder.end());
        // what the relay forwards: everything up to and including the first terminal event
        const end = events.findIndex((e) => e.type === 'finish' || e.type === 'error');
        expect(end, 'the decoder always ends the stream').toBeGreaterThanOrEqual(0);
        const relayed = events.slice(0, end + 1);
        for (const client of DIALECTS.filter((d) => d !== upstream)) {
          const encoder = CODECS[client].createStreamEncoder(client === 'chat' ? { model: 'p/m', created: 1, includeUsage: true } : { model: 'p/m', created: 1, idSuffix: 'F' });
          const text = relayed.map((e) => encoder.encode(e)).join('');
          expectValidClientSse(client, text);
        }
      }),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------- inherited property names

const PROTO_WORDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

/** Every string value of `sample`, replaced in turn by each inherited property name. */
function protoVariants(sample: unknown): unknown[] {
  const out: unknown[] = [];
  for (const p of paths(sample)) {
    let v: unknown = sample;
    for (const k of p) v = (v as Record<string | number, unknown>)[k];
    if (typeof v !== 'string') continue;
    for (const w of PROTO_WORDS) out.push(mutate(sample, p, 'replace', w));
  }
  return out;
}

describe('strings that name inherited properties ("constructor", "__proto__", …) are plain strings everywhere', () => {
  it.each(DIALECTS)('%s: requests, answers and stream events', (d) => {
    for (const body of requests[d].flatMap(protoVariants)) {
      let hub: ReturnType<DialectCodec['decodeRequest']> | undefined;
      onlyProtocolErrors(`${d} decodeRequest`, () => {
        hub = CODECS[d].decodeRequest(body);
      });
      if (!hub) continue;
      for (const adapter of ADAPTERS.filter((a) => a.dialect !== d)) {
        onlyProtocolErrors(`${d} → ${adapter.dialect}`, () => {
          const out = CODECS[adapter.dialect].encodeRequest({ ...hub!, model: 'm' }, adapter.encodeOptions('m'));
          adapter.finalizeBody(out, { model: 'm', effort: hub!.reasoning?.effort, from: d, passthrough: false, stream: false });
        });
      }
    }
    for (const body of responses[d].flatMap(protoVariants)) {
      let hub: ReturnType<DialectCodec['decodeResponse']> | undefined;
      onlyProtocolErrors(`${d} decodeResponse`, () => {
        hub = CODECS[d].decodeResponse(body);
      });
      if (!hub) continue;
      for (const client of DIALECTS.filter((c) => c !== d)) JSON.stringify(CODECS[client].encodeResponse(hub, { model: 'p/m', created: 1 }));
    }
    for (const sample of streams[d]) {
      const events = parseSse(sample);
      events.forEach((ev, i) => {
        let data: unknown;
        try {
          data = JSON.parse(ev.data);
        } catch {
          return;
        }
        for (const variant of protoVariants(data)) {
          const decoder = CODECS[d].createStreamDecoder();
          const out: HubEvent[] = [];
          events.forEach((e, j) => out.push(...decoder.push(j === i ? { ...e, data: JSON.stringify(variant) } : e)));
          out.push(...decoder.end());
          for (const e of out) if (e.type === 'error') expect(e.error.status).toBeTypeOf('number');
          for (const client of DIALECTS.filter((c) => c !== d)) {
            const enc = CODECS[client].createStreamEncoder({ model: 'p/m', created: 1 });
            const end = out.findIndex((e) => e.type === 'finish' || e.type === 'error');
            out.slice(0, end + 1).forEach((e) => enc.encode(e));
          }
        }
      });
    }
  });
});
