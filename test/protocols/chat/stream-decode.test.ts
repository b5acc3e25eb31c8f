/**
 * Upstream Chat streams → hub events. Each fixture is replayed whole (golden `<name>.events.json`),
 * then cut in two at EVERY byte offset, byte by byte and into random pieces: the hub events must be
 * identical, whatever the chunking (multi-byte UTF-8 and CRLF included).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { everySplit, plain, UPDATE_GOLDEN } from '../shared/helpers.js';
import { chunk, decodeCountingParses, decodeLines, decodePieces, finish, FIXTURES, streamOptions } from './helpers.js';

const DIR = join(FIXTURES, 'streams');
const streams = readdirSync(DIR).filter((f) => f.endsWith('.sse')).sort();

describe('chat stream decode fixtures', () => {
  for (const file of streams) {
    const bytes = readFileSync(join(DIR, file));
    const goldenPath = join(DIR, file.replace(/\.sse$/, '.events.json'));
    const opts = streamOptions(file);

    it(`${file}: golden hub events`, () => {
      const events = plain(decodePieces([bytes], opts));
      if (UPDATE_GOLDEN) writeFileSync(goldenPath, JSON.stringify(events, null, 2) + '\n');
      expect(existsSync(goldenPath), `${goldenPath} missing`).toBe(true);
      expect(events).toEqual(JSON.parse(readFileSync(goldenPath, 'utf8')));
    });

    it(`${file}: identical events however the bytes are cut (every offset, byte by byte, random pieces)`, () => {
      const whole = decodePieces([bytes], opts);
      for (const pieces of everySplit(bytes, 200, file.length * 7919)) {
        const got = decodePieces(pieces, opts);
        if (JSON.stringify(got) !== JSON.stringify(whole)) expect(got, `cut into ${pieces.map((p) => p.length).join('+')}`).toEqual(whole);
      }
    });
  }
});

describe('chat stream decode behaviour', () => {
  it('every stream ends in exactly one terminal event, and nothing follows it', () => {
    for (const file of streams) {
      const events = decodePieces([readFileSync(join(DIR, file))], streamOptions(file));
      const terminals = events.filter((e) => e.type === 'finish' || e.type === 'error');
      expect(terminals, file).toHaveLength(1);
      expect(events.at(-1), file).toBe(terminals[0]);
    }
  });

  it('blocks open before their deltas and close exactly once, before the finish', () => {
    for (const file of streams) {
      const events = decodePieces([readFileSync(join(DIR, file))], streamOptions(file));
      const open = new Set<number>();
      const closed = new Set<number>();
      for (const e of events) {
        if (e.type === 'block_start') {
          expect(open.has(e.index) || closed.has(e.index), `${file} reopens ${e.index}`).toBe(false);
          open.add(e.index);
        } else if (e.type === 'block_stop') {
          expect(open.delete(e.index), `${file} stops unopened ${e.index}`).toBe(true);
          closed.add(e.index);
        } else if ('index' in e) {
          expect(open.has(e.index), `${file} ${e.type} on closed block ${e.index}`).toBe(true);
        } else if (e.type === 'finish') {
          expect(open.size, `${file} finish with open blocks`).toBe(0);
        }
      }
    }
  });

  it('holds finish_reason until the usage chunk, then finishes with the usage', () => {
    const d = chatCodec.createStreamDecoder();
    d.push({ data: chunk({ role: 'assistant', content: 'hi' }) });
    const atFinish = d.push({ data: finish('stop') });
    expect(atFinish.map((e) => e.type)).toEqual(['block_stop']);
    const atUsage = d.push({ data: JSON.stringify({ id: 'chatcmpl-t', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } }) });
    expect(atUsage).toEqual([{ type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 2 } }]);
    expect(d.push({ data: '[DONE]' })).toEqual([]);
    expect(d.end()).toEqual([]);
  });

  it("reads Moonshot's usage: in the finishing choice, with cache hits as a top-level cached_tokens", () => {
    const moonshot = JSON.stringify({
      id: 'chatcmpl-t',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020, cached_tokens: 700 } }],
    });
    const events = decodeLines([chunk({ role: 'assistant', content: 'hi' }), moonshot, '[DONE]']);
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 1000, outputTokens: 20, cacheReadTokens: 700 } });
  });

  it('a finish without usage and without [DONE] still completes at end()', () => {
    const events = decodeLines([chunk({ content: 'x' }), finish('length')]);
    expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'max_tokens' });
  });

  it('[DONE] without a finish_reason ends the answer (end_turn, or tool_use after calls)', () => {
    expect(decodeLines([chunk({ content: 'x' }), '[DONE]']).at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn' });
    const withCall = decodeLines([chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'f', arguments: '{}' } }] }), '[DONE]']);
    expect(withCall.at(-1)).toEqual({ type: 'finish', stopReason: 'tool_use' });
  });

  it('a body that ends early is an upstream_stream_incomplete error, also with no chunk at all', () => {
    for (const lines of [[], [chunk({ content: 'x' })]]) {
      const last = decodeLines(lines).at(-1);
      expect(last).toMatchObject({ type: 'error', error: { status: 502, code: 'upstream_stream_incomplete' } });
    }
  });

  it('a malformed chunk is a final error event; later chunks are ignored', () => {
    const d = chatCodec.createStreamDecoder();
    d.push({ data: chunk({ content: 'a' }) });
    expect(d.push({ data: '{"id": nope' })).toEqual([
      { type: 'error', error: { status: 502, code: 'upstream_invalid_response', message: expect.any(String) } },
    ]);
    expect(d.push({ data: chunk({ content: 'b' }) })).toEqual([]);
    expect(d.end()).toEqual([]);
  });

  it('`event: error` with a Google-style body maps status and message', () => {
    const d = chatCodec.createStreamDecoder();
    const out = d.push({ event: 'error', data: JSON.stringify({ error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }) });
    expect(out).toEqual([{ type: 'error', error: { status: 429, code: 'upstream_rate_limited', message: 'Resource exhausted' } }]);
  });

  it("a used-up per-day Google quota waits for midnight Pacific, counted from the clock the decoder is given (its RetryInfo's seconds without one)", () => {
    const details = [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' },
    ];
    const data = JSON.stringify({ error: { code: 429, message: 'You exceeded your current quota.', status: 'RESOURCE_EXHAUSTED', details } });
    // 12:00 UTC on 10 March 2026 is 05:00 in California (summer time): midnight there is 19 h away
    const decoder = chatCodec.createStreamDecoder({ now: () => Date.parse('2026-03-10T12:00:00Z') });
    decoder.push({ data: chunk({ content: 'a' }) });
    expect(decoder.push({ event: 'error', data }).at(-1)).toMatchObject({ type: 'error', error: { status: 402, code: 'upstream_billing', statedWaitMs: 19 * 3_600_000 } });
    expect(chatCodec.createStreamDecoder().push({ event: 'error', data }).at(-1)).toMatchObject({ type: 'error', error: { status: 402, statedWaitMs: 37_000 } });
  });

  it('reads reasoning once per delta when a server sends both reasoning and reasoning_content', () => {
    const events = decodeLines([chunk({ reasoning: 'abc', reasoning_content: 'abc' }), finish('stop'), '[DONE]']);
    expect(events.filter((e) => e.type === 'reasoning_delta')).toEqual([{ type: 'reasoning_delta', index: 0, text: 'abc' }]);
  });

  it('reasoning_details without a reasoning string still carry their text', () => {
    const events = decodeLines([
      chunk({ reasoning_details: [{ type: 'reasoning.summary', summary: 'sum', format: 'openai-responses-v1', index: 0 }] }),
      chunk({ reasoning_details: [{ type: 'reasoning.encrypted', id: 'rs_1', data: 'enc', format: 'openai-responses-v1', index: 0 }] }),
      chunk({ content: 'ok' }),
      finish('stop'),
      '[DONE]',
    ]);
    expect(events.filter((e) => e.type === 'reasoning_delta')).toEqual([{ type: 'reasoning_delta', index: 0, text: 'sum' }]);
    expect(events.find((e) => e.type === 'reasoning_origin')).toEqual({
      type: 'reasoning_origin',
      index: 0,
      origin: {
        kind: 'openrouter',
        details: [
          { type: 'reasoning.summary', summary: 'sum', format: 'openai-responses-v1', index: 0 },
          { type: 'reasoning.encrypted', id: 'rs_1', data: 'enc', format: 'openai-responses-v1', index: 0 },
        ],
      },
    });
  });

  it('tool-call fragments without index continue the last call; a call without a name waits for it', () => {
    const events = decodeLines([
      chunk({ tool_calls: [{ id: 'c1', function: { arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ function: { name: 'late_name', arguments: ':1}' } }] }),
      finish('tool_calls'),
      '[DONE]',
    ]);
    expect(events.filter((e) => e.type !== 'start')).toEqual([
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c1', name: 'late_name' } },
      { type: 'arguments_delta', index: 0, json: '{"a":1}' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'tool_use' },
    ]);
  });

  it('ignores choices other than index 0 (n > 1 upstream)', () => {
    const events = decodeLines([
      JSON.stringify({ id: 'x', choices: [{ index: 1, delta: { content: 'other' } }, { index: 0, delta: { content: 'mine' } }] }),
      finish('stop'),
      '[DONE]',
    ]);
    expect(events.filter((e) => e.type === 'text_delta')).toEqual([{ type: 'text_delta', index: 0, text: 'mine' }]);
  });

  it('synthesised ids differ between two answers without response ids', () => {
    const ids = [0, 1].map(() => {
      const ev = decodeLines([JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] } }] }), '[DONE]']);
      const start = ev.find((e) => e.type === 'block_start');
      return start?.type === 'block_start' && start.block.type === 'function_call' ? start.block.callId : '';
    });
    expect(ids[0]).toMatch(/^call_[0-9a-f]{16}_0$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('chat stream decode: chunks that differ from the last only in their text', () => {
  // what the decoder makes of each chunk when every chunk takes the full parse: the same JSON
  // spaced out, so that `"content":"` never matches
  const spaceOut = (line: string): string => {
    try {
      return JSON.stringify(JSON.parse(line), null, 1);
    } catch {
      return line; // not JSON: the full parse refuses it either way
    }
  };
  const spaced = (lines: string[]) => decodeLines(lines.map((l) => (l.startsWith('{') ? spaceOut(l) : l)));

  it('give the same events as a full parse of each (property)', () => {
    const text = fc.string({ maxLength: 12, unit: fc.constantFrom('a', 'é', '😀', '"', '\\', '\n', '\u0001', ' ', '"content":"') });
    const kinds: ((t: string) => string)[] = [
      (t) => chunk({ content: t }),
      (t) => chunk({ content: t }, { id: 'chatcmpl-other' }), // another frame
      (t) => chunk({ reasoning_content: t }),
      (t) => chunk({ content: t, refusal: 'no' }), // not text alone
      (t) => chunk({ content: t }, { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }),
      (t) => chunk({ content: t }, { error: { message: t } }),
      () => chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
      () => chunk({ content: null }),
      () => '{"id":"chatcmpl-t","choices":[{"index":0,"delta":{"content":"cut', // malformed
    ];
    // runs of one kind (three in a row engage the shortcut), each chunk with its own text
    const run = fc.tuple(fc.integer({ min: 0, max: kinds.length - 1 }), fc.array(text, { minLength: 1, maxLength: 4 })).map(([k, texts]) => texts.map((t) => kinds[k]!(t)));
    fc.assert(
      fc.property(fc.array(run, { maxLength: 6 }).map((runs) => runs.flat()), fc.boolean(), (middle, finished) => {
        const lines = [chunk({ role: 'assistant', content: '' }), ...middle, ...(finished ? [finish('stop'), chunk({ content: 'late' })] : []), '[DONE]'];
        expect(decodeLines(lines)).toEqual(spaced(lines));
      }),
      { numRuns: 400 },
    );
  });

  it('parse only the text literal once two in a row share their frame', () => {
    const lines = [chunk({ role: 'assistant', content: '' }), ...Array.from({ length: 50 }, (_, i) => chunk({ content: `tok${i} "q" ` })), finish('stop'), '[DONE]'];
    const { events, wholeChunks } = decodeCountingParses(lines);
    expect(wholeChunks).toBeLessThanOrEqual(5); // role chunk, two text chunks (the second proves the frame, with a probe), finish
    expect(events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text).join('')).toBe(Array.from({ length: 50 }, (_, i) => `tok${i} "q" `).join(''));
  });

  it('a frame whose "content" literal is not the delta\'s content is never taken for it', () => {
    // the delta's key escaped, and another member spelled "content": cutting that one out leaves
    // frames that match; the probe parse shows its literal is not the text
    const line = (meta: string) => `{"id":"x","choices":[{"index":0,"delta":{"cont\\u0065nt":"A"},"finish_reason":null}],"meta":{"content":${JSON.stringify(meta)}}}`;
    const lines = [chunk({ role: 'assistant', content: '' }), line('A'), line('A'), line('B'), line('C'), finish('stop'), '[DONE]'];
    const texts = decodeLines(lines).filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text);
    expect(texts).toEqual(['A', 'A', 'A', 'A']);
  });
});
