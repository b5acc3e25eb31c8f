import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SseEventTooLarge, SseParser, sseData, sseNamed, SSE_DONE, type SseEvent } from '../../src/protocols/sse.js';
import { splitAt } from './shared/helpers.js';

function parseAll(pieces: Uint8Array[], end = true): SseEvent[] {
  const out: SseEvent[] = [];
  const p = new SseParser((e) => out.push(e));
  for (const piece of pieces) p.push(piece);
  if (end) p.end();
  return out;
}

/**
 * The event-stream spec read over a whole input at once: decode, split at CRLF / CR / LF, one
 * rule per line; an unfinished last line and event are delivered at the end (as SseParser.end does).
 */
function specReading(bytes: Buffer): SseEvent[] {
  const out: SseEvent[] = [];
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let saw = false;
  const dispatch = () => {
    if (saw) {
      const ev: SseEvent = { data: data.join('\n') };
      if (event !== undefined) ev.event = event;
      if (id !== undefined) ev.id = id;
      out.push(ev);
    }
    data = [];
    event = undefined;
    id = undefined;
    saw = false;
  };
  for (const line of bytes.toString('utf8').split(/\r\n|\r|\n/)) {
    if (line === '') {
      dispatch();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      saw = true;
    } else if (field === 'event') {
      event = value;
      saw = true;
    } else if (field === 'id') id = value;
  }
  dispatch();
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

  it('with errorField, an `error:` line (llama-server\'s stream errors) is an event named error; without, it is an unknown field', () => {
    const input = Buffer.from('data: {"a":1}\n\nerror: {"code":400,"message":"too long"}\n\nerror:{"code":500}\n\nerrors: x\n\ndata: [DONE]\n\n');
    const withField: SseEvent[] = [];
    const p = new SseParser((e) => withField.push(e), undefined, { errorField: true });
    for (let i = 0; i < input.length; i += 7) p.push(input.subarray(i, i + 7));
    p.end();
    expect(withField).toEqual([
      { data: '{"a":1}' },
      { event: 'error', data: '{"code":400,"message":"too long"}' },
      { event: 'error', data: '{"code":500}' },
      { data: '[DONE]' },
    ]);
    expect(parseAll([input])).toEqual([{ data: '{"a":1}' }, { data: '[DONE]' }]);
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

  it('delivers the events of a chunk at once, however long the unfinished line after them', () => {
    const out: SseEvent[] = [];
    const p = new SseParser((e) => out.push(e));
    p.push(Buffer.from(`data: a\r\n\r\ndata: b\n\ndata: ${'x'.repeat(5000)}`));
    expect(out).toEqual([{ data: 'a' }, { data: 'b' }]);
    p.push(Buffer.from('\n\n'));
    expect(out).toHaveLength(3);
    expect(out[2]!.data).toHaveLength(5000);
    // lone CR line ends likewise
    const q = new SseParser((e) => out.push(e));
    q.push(Buffer.from(`data: c\r\rdata: ${'y'.repeat(5000)}`));
    expect(out.at(-1)).toEqual({ data: 'c' });
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
          const got = parseAll(splitAt(bytes, cuts.map((c) => c % (bytes.length + 1))));
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

  it('matches a whole-input reading of the spec for any stream cut anywhere (line ends, fields, UTF-8, invalid bytes)', () => {
    // the pieces a stream is made of: field lines, comments, line ends of all three kinds,
    // multi-byte characters and bytes that are not UTF-8
    const piece = fc.constantFrom(
      ...['data', 'data:', 'data: ', 'event: ', 'event:', 'id: ', 'id', 'retry: 5', 'dat', 'datum: x', 'events: x', ': c', ':'].map((t) => Buffer.from(t)),
      ...['\n', '\r', '\r\n', '\n\n', '\r\n\r\n', 'x', ' ', ':', '{"a":1}', 'é', '你', '🎉'].map((t) => Buffer.from(t)),
      Buffer.from([0xe2, 0x82]),
      Buffer.from([0xff]),
      Buffer.from([0xf0, 0x9f]),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
        const bytes = Buffer.concat(parts);
        expect(parseAll(splitAt(bytes, cuts.map((c) => c % (bytes.length + 1))))).toEqual(specReading(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it('counts an event against its bound in bytes, multi-byte characters too', () => {
    const events: SseEvent[] = [];
    const p = new SseParser((e) => events.push(e), 1024);
    // 500 characters, 1,000 bytes: under the bound
    p.push(Buffer.from(`data: ${'é'.repeat(500)}\n\n`));
    expect(events).toHaveLength(1);
    // 600 characters, 1,200 bytes: over it, though 606 characters would pass a count of characters
    expect(() => p.push(Buffer.from(`data: ${'é'.repeat(600)}\n\n`))).toThrow(SseEventTooLarge);
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
