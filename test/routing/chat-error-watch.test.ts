/**
 * The passthrough Chat relay's watch across ticks (chat-error-watch.ts): an upstream error event
 * is replaced wherever the stream is cut, with CRLF line ends, with `id:`/`retry:` lines; an
 * ordinary stream goes out whole, held back at most by its incomplete last event.
 */
import { describe, expect, it } from 'vitest';
import { ChatErrorWatch, HOLD_LIMIT } from '../../src/routing/chat-error-watch.js';
import type { ParsedError } from '../../src/routing/upstream-errors.js';
import { chunk, data, ERRORS, opening } from '../fixtures/chat-error-events.js';

/** The relay's use of the watch: each tick's pieces, then the stream's end; what went out, and the error that ended it. */
function relay(ticks: Buffer[][]): { out: string; error?: ParsedError; heldMost: number } {
  const watch = new ChatErrorWatch();
  const out: Buffer[] = [];
  let given = 0;
  let heldMost = 0;
  for (const tick of ticks) {
    const pending: (string | Buffer)[] = [...tick];
    given += tick.reduce((n, b) => n + b.length, 0);
    const error = watch.take(pending, false);
    for (const p of pending) out.push(Buffer.from(p));
    if (error) return { out: Buffer.concat(out).toString(), error, heldMost };
    heldMost = Math.max(heldMost, given - Buffer.concat(out).length);
  }
  const pending: (string | Buffer)[] = [];
  const error = watch.take(pending, true);
  for (const p of pending) out.push(Buffer.from(p));
  return error ? { out: Buffer.concat(out).toString(), error, heldMost } : { out: Buffer.concat(out).toString(), heldMost };
}

/** The stream cut at byte k, as two ticks. */
const cutAt = (stream: Buffer, k: number): Buffer[][] => [[stream.subarray(0, k)], [stream.subarray(k)]];

const crlf = (s: string) => s.replaceAll('\n', '\r\n');
/** Each event with an `id:` line before its data and a `retry:` line after it (as sse-starlette writes them). */
const withIds = (s: string) =>
  s
    .split('\n\n')
    .filter((e) => e !== '')
    .map((e, i) => (e.startsWith(':') ? `${e}\n\n` : `id: ${i}\n${e}\nretry: 1500\n\n`))
    .join('');

const SHAPES: Record<string, (s: string) => string> = { 'LF': (s) => s, 'CRLF': crlf, 'id: and retry: lines': withIds, 'id:/retry: lines, CRLF': (s) => crlf(withIds(s)) };

describe('ChatErrorWatch', () => {
  for (const [shapeName, shape] of Object.entries(SHAPES)) {
    for (const [name, e] of Object.entries(ERRORS)) {
      for (const done of ['', 'data: [DONE]\n\n']) {
        it(`${shapeName}, ${name}${done ? ', [DONE] after it' : ''}: replaced wherever the stream is cut, in ticks or pieces`, () => {
          const head = shape(opening);
          const stream = Buffer.from(shape(opening + e.event + done));
          const expectReplaced = (r: ReturnType<typeof relay>, what: string) => {
            expect(r.out, what).toBe(head);
            expect(r.error?.message, what).toBe(e.message);
            expect(r.error?.impliedStatus, what).toBe(e.impliedStatus);
          };
          expectReplaced(relay([[stream]]), 'whole');
          for (let k = 1; k < stream.length; k++) {
            expectReplaced(relay(cutAt(stream, k)), `cut ${k}`);
            expectReplaced(relay([[stream.subarray(0, k), stream.subarray(k)]]), `pieces cut ${k}`);
          }
          // a byte per read, each its own tick
          expectReplaced(relay([...stream].map((b) => [Buffer.from([b])])), 'byte by byte');
        });
      }
    }

    it(`${shapeName}: an ordinary stream goes out whole however cut; only its incomplete last event is held, until it is whole`, () => {
      const text = shape(
        opening +
          chunk({ content: 'error' }) +
          chunk({ content: '{"error":"not really"}' }) +
          chunk({ content: 'x' }, 'stop') +
          data({ id: 'gen-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } }) +
          ': keep-alive\n\n' +
          'data: [DONE]\n\n',
      );
      const stream = Buffer.from(text);
      const longest = Math.max(...text.split(/\r?\n\r?\n/).map((ev) => Buffer.byteLength(ev) + 4));
      for (let k = 0; k <= stream.length; k++) {
        const r = relay(cutAt(stream, k));
        expect(r.error, `cut ${k}`).toBeUndefined();
        expect(r.out, `cut ${k}`).toBe(text);
        expect(r.heldMost, `cut ${k}`).toBeLessThanOrEqual(longest);
        const ticked = relay([[stream.subarray(0, k), stream.subarray(k)]]);
        expect([ticked.error, ticked.out], `pieces cut ${k}`).toEqual([undefined, text]);
      }
    });
  }

  it('the usual tick (it ends with a choice delta) goes out as it came: nothing held, nothing copied', () => {
    const watch = new ChatErrorWatch();
    const pieces = [Buffer.from(opening), Buffer.from(chunk({ content: 'more' }))];
    const pending: (string | Buffer)[] = [...pieces];
    expect(watch.take(pending, false)).toBeUndefined();
    expect(pending).toEqual(pieces);
    expect(pending[1]).toBe(pieces[1]);
  });

  it('an error event followed by more than [DONE] goes out as it came; a comment or an event over HOLD_LIMIT is not held', () => {
    const gemini = ERRORS.gemini!.event;
    const after = gemini + chunk({ content: 'x' });
    expect(relay(cutAt(Buffer.from(after), gemini.length + 10))).toEqual({ out: after, heldMost: 10 });
    // what follows may still be the `[DONE]` that makes the error the last event: both are held
    expect(relay(cutAt(Buffer.from(after), gemini.length + 3))).toEqual({ out: after, heldMost: gemini.length + 3 });
    const comment = Buffer.from(': keep-alive\n\n: still wor');
    const watch = new ChatErrorWatch();
    const pending: (string | Buffer)[] = [comment];
    watch.take(pending, false);
    expect(Buffer.concat(pending as Buffer[]).toString()).toBe(comment.toString());
    const long = Buffer.from(`data: {"error":{"message":"${'x'.repeat(HOLD_LIMIT)}`);
    const out: (string | Buffer)[] = [long];
    new ChatErrorWatch().take(out, false);
    expect(Buffer.concat(out as Buffer[]).length).toBe(long.length);
  });

  it('at the stream’s end, a last error event without its blank line is replaced; other held bytes go out', () => {
    const gemini = ERRORS.gemini!.event.trimEnd();
    expect(relay([[Buffer.from(opening + gemini)]])).toMatchObject({ out: opening, error: { message: ERRORS.gemini!.message } });
    const cut = opening + 'data: {"id":"gen-1","choi';
    expect(relay([[Buffer.from(cut)]])).toEqual({ out: cut, heldMost: cut.length - opening.length });
  });
});
