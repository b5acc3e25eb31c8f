/**
 * A service key echoed in a passthrough stream: masked whole wherever the network cuts it (inside
 * the prefix, inside the base62 run after it), with the same bytes as the uncut stream masked at
 * once; the usual chunk passes as the same Buffer, and nothing but the possible start of a key is
 * held back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskEchoedBytes } from '../../src/routing/echoed-secrets.js';
import { ServiceKeyStreamMask } from '../../src/routing/service-key-stream.js';
import { HELD_RUN_LIMIT } from '../../src/routing/service-key-tail.js';

const KEY = 'sk-svc-proxy-3kTQm8VdPa1xZr9yLw2bNc5Hj7Fe4Gs6AbCdEfGhIjK';
const b = (s: string) => Buffer.from(s, 'utf8');

/** Everything the mask lets out for these chunks, and what each push let out. */
function relay(chunks: Buffer[]): { out: Buffer; pieces: Buffer[] } {
  const mask = new ServiceKeyStreamMask();
  const pieces = chunks.map((c) => mask.push(c));
  pieces.push(mask.flush());
  return { out: Buffer.concat(pieces), pieces };
}

function cut(whole: Buffer, at: number[]): Buffer[] {
  const points = [0, ...at, whole.length];
  return points.slice(1).map((end, i) => whole.subarray(points[i], end));
}

const chat = (content: string) => `data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content } }] })}\n\n`;
const messages = (text: string) => `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })}\n\n`;

const STREAMS = [
  // a key inside an event, an event that ends in a key, keys side by side, one followed by `_`
  chat(`your key is ${KEY}, héllo 🎉`) + chat('more') + 'data: [DONE]\n\n',
  messages(`${KEY}`) + messages(`(${KEY}_${KEY}) and sk-svc-proxy-short`),
  // the stream ends inside a key: flushed, masked
  `data: {"delta":"x ${KEY}`,
  // no key: the starts of one that never become one go out as they were
  chat("it's sk-s and sk-svc-proxy- and sk-svc-proxy-abc, s k sk- sk-svc"),
];

describe('ServiceKeyStreamMask', () => {
  it('the usual chunk goes through as the same Buffer, holding nothing', () => {
    const mask = new ServiceKeyStreamMask();
    const chunk = b(chat('héllo wörld 🎉, sk- is no key, nor sk-svc-proxy- alone'));
    expect(mask.push(chunk)).toBe(chunk);
    expect(mask.flush().length).toBe(0);
    const midLine = b('data: {"choices":[{"delta":{"content":"mid');
    expect(mask.push(midLine)).toBe(midLine);
  });

  it('masks a key cut at every byte, into two and into three pieces, as the uncut stream is masked', () => {
    for (const text of STREAMS) {
      const whole = b(text);
      const expected = maskEchoedBytes(whole, undefined);
      expect(relay([whole]).out.equals(expected)).toBe(true);
      expect(expected.toString()).not.toContain(KEY.slice(13, 29));
      for (let i = 1; i < whole.length; i++) {
        expect(relay(cut(whole, [i])).out.toString(), `${text} cut at ${i}`).toBe(expected.toString());
      }
      for (let i = 1; i < whole.length; i += 2) {
        for (let j = i + 1; j < whole.length; j += 3) {
          expect(relay(cut(whole, [i, j])).out.equals(expected), `${text} cut at ${i},${j}`).toBe(true);
        }
      }
    }
  });

  it('masks a key fed one byte at a time', () => {
    const whole = b(STREAMS[0]! + STREAMS[1]!);
    const bytes = Array.from({ length: whole.length }, (_, i) => whole.subarray(i, i + 1));
    const { out } = relay(bytes);
    expect(out.equals(maskEchoedBytes(whole, undefined))).toBe(true);
    expect(out.toString()).not.toContain(KEY.slice(13, 29));
  });

  it('holds back only the end that may start a key: inside the prefix, or the run after a whole one', () => {
    const mask = new ServiceKeyStreamMask();
    expect(mask.push(b('data: {"text":"key sk-sv')).toString()).toBe('data: {"text":"key ');
    expect(mask.push(b('c-proxy-3kTQm8')).toString()).toBe('');
    expect(mask.push(b('VdPa1xZr9yLw2bNc5Hj7Fe4Gs6AbCdEfGhIjK"}\n\n')).toString()).toBe('[REDACTED]"}\n\n');
    // a chunk ending in an ordinary word, or in a line end, is let go whole
    for (const text of ['data: {"text":"the cat', 'data: {"text":"x"}\n\n', 'data: {"text":"sk-svc-proxy-abc!']) {
      expect(new ServiceKeyStreamMask().push(b(text)).toString()).toBe(text);
    }
  });

  it('lets a run far longer than a key go once it has held a key’s worth, masked', () => {
    const mask = new ServiceKeyStreamMask();
    const run = 'A'.repeat(80);
    expect(mask.push(b(`x sk-svc-proxy-${run}`)).toString()).toBe('x [REDACTED]');
  });

  it('property: any cut of any stream gives the bytes of the uncut stream, masked, and no key gets out', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(KEY, 'sk-svc-proxy-', 'sk-s', ' ', '\n\n', 'data: ', '"}', '_'),
      fc.stringMatching(/^[A-Za-z0-9]{1,20}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, rawCuts) => {
        const whole = b(parts.join(''));
        const cuts = [...new Set(rawCuts.map((c) => 1 + (c % Math.max(1, whole.length - 1))))].sort((x, y) => x - y);
        const { out } = relay(cut(whole, cuts));
        expect(out.toString()).not.toContain(KEY.slice(13, 29));
        // past HELD_RUN_LIMIT characters after a prefix, the rest of a run (no part of a key) is not waited for;
        // a run ends where another prefix starts, as in SERVICE_KEY_RE (a key right after a key is a key of its own)
        const runs = [...whole.toString().matchAll(/sk-svc-proxy-((?:(?!sk-svc-proxy-)[A-Za-z0-9])*)/g)].map((m) => m[1]!.length);
        if (runs.every((n) => n < HELD_RUN_LIMIT)) expect(out.toString()).toBe(maskEchoedBytes(whole, undefined).toString());
      }),
      { numRuns: 500 },
    );
  });
});
