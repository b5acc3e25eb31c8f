/**
 * The SSE parser under hostile input: a line arriving in thousands of small chunks costs linear
 * time (it used to re-copy the whole unfinished line on every chunk), and one event may not grow
 * past its bound — neither as one endless line nor as endless `data:` lines without a blank one.
 */
import { describe, expect, it } from 'vitest';
import { MAX_SSE_EVENT_BYTES, SseEventTooLarge, SseParser, type SseEvent } from '../../src/protocols/sse.js';

describe('SseParser bounds', () => {
  it('a 16 MB line in 4 KB chunks is parsed in linear time', () => {
    const events: SseEvent[] = [];
    const p = new SseParser((e) => events.push(e));
    const piece = Buffer.alloc(4096, 0x61);
    const started = performance.now();
    p.push(Buffer.from('data: '));
    for (let i = 0; i < 4096; i++) p.push(piece);
    p.push(Buffer.from('\n\n'));
    const ms = performance.now() - started;
    expect(events).toHaveLength(1);
    expect(events[0]!.data.length).toBe(16 * 1024 * 1024);
    // quadratic copying took tens of seconds here; linear takes well under one
    expect(ms).toBeLessThan(3_000);
  });

  it('the default bound is far above real events', () => {
    expect(MAX_SSE_EVENT_BYTES).toBeGreaterThanOrEqual(16 * 1024 * 1024);
  });

  it('an endless line throws SseEventTooLarge once past the bound', () => {
    const p = new SseParser(() => undefined, 1024);
    p.push(Buffer.from('data: '));
    expect(() => {
      for (let i = 0; i < 100; i++) p.push(Buffer.alloc(100, 0x62));
    }).toThrow(SseEventTooLarge);
  });

  it('endless data lines without a blank line throw too; events under the bound pass', () => {
    const events: SseEvent[] = [];
    const p = new SseParser((e) => events.push(e), 1024);
    p.push(Buffer.from(`data: ${'x'.repeat(500)}\ndata: ${'y'.repeat(400)}\n\n`));
    expect(events).toHaveLength(1);
    expect(() => {
      for (let i = 0; i < 100; i++) p.push(Buffer.from(`data: ${'z'.repeat(50)}\n`));
    }).toThrow(SseEventTooLarge);
  });

  it('the count restarts with each event', () => {
    const events: SseEvent[] = [];
    const p = new SseParser((e) => events.push(e), 1024);
    for (let i = 0; i < 50; i++) p.push(Buffer.from(`data: ${'w'.repeat(900)}\n\n`));
    expect(events).toHaveLength(50);
  });
});
