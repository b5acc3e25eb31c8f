import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SseParser, sseData, sseNamed, SSE_DONE, type SseEvent } from '../../src/protocols/sse.js';

function parseAll(pieces: Uint8Array[], end = true): SseEvent[] {
  const out: SseEvent[] = [];
  const p = new SseParser((e) => out.push(e));
  for (const piece of pieces) p.push(piece);
  if (end) p.end();
  return out;
}

const sample = Buffer.from(
  [
    ': OPENROUTER PROCESSING',
    '',
    'event: message_start',
    'data: {"type":"message_start","text":"héllo 你好 🎉"}',
    '',
    'data: first line',
    'data: second line',
    '',
    'event: ping',
    'data: {"type":"ping"}',
    'id: 7',
    '',
    'data: [DONE]',
    '',
    '',
  ].join('\n'),
);

const expected: SseEvent[] = [
  { event: 'message_start', data: '{"type":"message_start","text":"héllo 你好 🎉"}' },
  { data: 'first line\nsecond line' },
  { event: 'ping', data: '{"type":"ping"}', id: '7' },
  { data: '[DONE]' },
];

describe('SseParser', () => {
  it('parses events, comments, multi-line data and ids', () => {
    expect(parseAll([sample])).toEqual(expected);
  });

  it('gives the same events when the input is cut in two at every byte offset', () => {
    for (let i = 0; i <= sample.length; i++) {
      expect(parseAll([sample.subarray(0, i), sample.subarray(i)])).toEqual(expected);
    }
  });

  it('survives one byte at a time (inside multi-byte UTF-8 characters too)', () => {
    const pieces = [...sample].map((b) => Uint8Array.of(b));
    expect(parseAll(pieces)).toEqual(expected);
  });

  it('accepts CRLF and lone CR line ends, even when \\r and \\n land in different chunks', () => {
    const crlf = Buffer.from(sample.toString('utf8').replace(/\n/g, '\r\n'));
    const cr = Buffer.from(sample.toString('utf8').replace(/\n/g, '\r'));
    for (const input of [crlf, cr]) {
      for (let i = 0; i <= input.length; i++) {
        expect(parseAll([input.subarray(0, i), input.subarray(i)])).toEqual(expected);
      }
    }
  });

  it('delivers a final event that lacks its blank line at end of stream', () => {
    expect(parseAll([Buffer.from('data: {"a":1}')])).toEqual([{ data: '{"a":1}' }]);
    expect(parseAll([Buffer.from('data: {"a":1}')], false)).toEqual([]);
  });

  it('holds only the unfinished tail (memory stays flat)', () => {
    const p = new SseParser(() => {});
    const chunk = Buffer.from('data: ' + 'x'.repeat(1000) + '\n\n');
    for (let i = 0; i < 10_000; i++) p.push(chunk);
    // @ts-expect-error reading a private field on purpose
    expect(p.tail).toBeNull();
  });

  it('never throws and round-trips what the writers produce, for arbitrary payloads and cuts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.option(fc.stringMatching(/^[a-z_.]{1,20}$/), { nil: undefined }), payload: fc.jsonValue() }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (events, cuts) => {
          const text = events.map((e) => (e.name ? sseNamed(e.name, e.payload) : sseData(e.payload))).join('') + SSE_DONE;
          const bytes = Buffer.from(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const pieces: Buffer[] = [];
          let prev = 0;
          for (const p of points) {
            pieces.push(bytes.subarray(prev, p));
            prev = p;
          }
          pieces.push(bytes.subarray(prev));
          const got = parseAll(pieces);
          expect(got.length).toBe(events.length + 1);
          events.forEach((e, i) => {
            expect(got[i]!.event).toBe(e.name);
            expect(JSON.parse(got[i]!.data)).toEqual(JSON.parse(JSON.stringify(e.payload)));
          });
          expect(got[events.length]!.data).toBe('[DONE]');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 10 }), (pieces) => {
        parseAll(pieces);
      }),
      { numRuns: 500 },
    );
  });
});
