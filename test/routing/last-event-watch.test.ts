/**
 * The passthrough relay's look at the end of each tick (last-event-watch.ts), with the edits it
 * leads to (failed-response-code.ts, stream-error-wait.ts): the stream's terminal and error events
 * are found whole at the end of a tick's bytes; an edited event cut across reads is held back and
 * goes out edited once whole, wherever the stream is cut; any other bytes go out as they came.
 */
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../src/protocols/hub.js';
import { recodeFailedResponse } from '../../src/routing/failed-response-code.js';
import { HOLD_LIMIT, LastEventWatch } from '../../src/routing/last-event-watch.js';
import type { LastEventKind } from '../../src/routing/last-event.js';
import { addWaitToRateLimitEvent } from '../../src/routing/stream-error-wait.js';

type Amend = (pending: (string | Buffer)[]) => void;

/**
 * The relay's use of the watch: each tick's pieces judged (and the last event amended when it is
 * one), then the stream's end. What went out, the kinds seen, and the most bytes held back at once.
 */
function relay(dialect: Dialect, ticks: Buffer[][], amend: Amend): { out: string; kinds: LastEventKind[]; heldMost: number } {
  const watch = new LastEventWatch(dialect);
  const out: Buffer[] = [];
  const kinds: LastEventKind[] = [];
  let given = 0;
  let sent = 0;
  let heldMost = 0;
  const send = (pending: (string | Buffer)[]) => {
    for (const p of pending) {
      const b = Buffer.from(p);
      out.push(b);
      sent += b.length;
    }
  };
  for (const tick of ticks) {
    const pending: (string | Buffer)[] = [...tick];
    given += tick.reduce((n, b) => n + b.length, 0);
    const kind = watch.take(pending, false);
    kinds.push(kind);
    if (kind !== undefined) amend(pending);
    send(pending);
    heldMost = Math.max(heldMost, given - sent);
  }
  const pending: (string | Buffer)[] = [];
  watch.take(pending, true);
  amend(pending);
  send(pending);
  return { out: Buffer.concat(out).toString(), kinds, heldMost };
}

const cutAt = (stream: Buffer, k: number): Buffer[][] => [[stream.subarray(0, k)], [stream.subarray(k)]];
const named = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;

const response = (status: string, error: unknown) => ({ id: 'resp_1', object: 'response', status, model: 'gpt-5.4', output: [], error });
const overloaded = { type: 'service_unavailable_error', code: 'server_is_overloaded', message: 'Our servers are currently overloaded. Please try again later.', param: null };
const opening = named({ type: 'response.created', sequence_number: 0, response: response('in_progress', null) }) + named({ type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'partial' });
const failing = (code: string, nested: boolean) =>
  named(nested ? { type: 'error', sequence_number: 2, error: { ...overloaded, code } } : { type: 'error', sequence_number: 2, code, message: overloaded.message, param: null }) +
  named({ type: 'response.failed', sequence_number: 3, response: response('failed', { code, message: overloaded.message }) });

describe('LastEventWatch: a Responses stream that fails on OpenAI’s overload', () => {
  for (const nested of [true, false]) {
    for (const [code, ours] of [['server_is_overloaded', 'upstream_overloaded'], ['slow_down', 'rate_limit_exceeded']] as const) {
      it(`${nested ? 'nested' : 'flat'} error event, ${code}: both events go out with ${ours}, wherever the stream is cut`, () => {
        const stream = Buffer.from(opening + failing(code, nested));
        const expected = opening + failing(ours, nested);
        const check = (r: ReturnType<typeof relay>, what: string) => {
          expect(r.out, what).toBe(expected);
          expect(r.kinds.at(-1), what).toBe('terminal');
        };
        check(relay('responses', [[stream]], recodeFailedResponse), 'whole');
        for (let k = 1; k < stream.length; k++) {
          check(relay('responses', cutAt(stream, k), recodeFailedResponse), `cut ${k}`);
          check(relay('responses', [[stream.subarray(0, k), stream.subarray(k)]], recodeFailedResponse), `pieces cut ${k}`);
        }
        // a read per event, then the error event and the failed response each cut in three
        const events = stream.toString().split(/(?<=\n\n)/).map((e) => Buffer.from(e));
        check(relay('responses', events.map((e) => [e]), recodeFailedResponse), 'an event per read');
        const tail = Buffer.from(failing(code, nested));
        for (let k = 1; k < tail.length - 1; k += 7) {
          const ticks = [[Buffer.from(opening)], [tail.subarray(0, k)], [tail.subarray(k, k + 1)], [tail.subarray(k + 1)]];
          check(relay('responses', ticks, recodeFailedResponse), `three cuts at ${k}`);
        }
        check(relay('responses', [...stream].map((b) => [Buffer.from([b])]), recodeFailedResponse), 'byte by byte');
      });
    }
  }

  it('a failed response Codex reads rightly goes out as it came, however cut', () => {
    const stream = Buffer.from(opening + failing('rate_limit_exceeded', false));
    for (let k = 1; k < stream.length; k++) expect(relay('responses', cutAt(stream, k), recodeFailedResponse).out).toBe(stream.toString());
  });
});

describe('LastEventWatch: a Messages stream that ends with Anthropic’s rate limit', () => {
  const headers = { 'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:20Z', 'anthropic-ratelimit-input-tokens-reset': '2026-01-01T00:00:20Z' };
  const date = 'Thu, 01 Jan 2026 00:00:00 GMT';
  const amend: Amend = (pending) => addWaitToRateLimitEvent(pending, headers, date);
  const start = named({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 5, output_tokens: 0 } } });
  const delta = named({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'partial' } });
  const limit = (message: string) => named({ type: 'error', error: { type: 'rate_limit_error', message } });
  const message = 'This request would exceed the rate limit for your organization of 30,000 input tokens per minute.';

  it('the error event goes out with the wait in its message, wherever the stream is cut', () => {
    const stream = Buffer.from(start + delta + limit(message));
    const expected = start + delta + limit(`${message} Please try again in 20s.`);
    expect(relay('messages', [[stream]], amend)).toMatchObject({ out: expected, kinds: ['error'] });
    for (let k = 1; k < stream.length; k++) {
      expect(relay('messages', cutAt(stream, k), amend).out, `cut ${k}`).toBe(expected);
      expect(relay('messages', [[stream.subarray(0, k), stream.subarray(k)]], amend).out, `pieces cut ${k}`).toBe(expected);
    }
    expect(relay('messages', [...stream].map((b) => [Buffer.from([b])]), amend).out).toBe(expected);
  });
});

describe('LastEventWatch: any other stream', () => {
  const deltas = Array.from({ length: 4 }, (_, i) => named({ type: 'response.output_text.delta', sequence_number: i + 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: `word ${i} "error"` })).join('');
  const completed = named({ type: 'response.completed', sequence_number: 5, response: response('completed', null) });

  it('goes out as it came however cut; only the first bytes of an event that may still name an edited type wait', () => {
    const stream = Buffer.from(opening + deltas + completed);
    // `data: {"type":"response.` is the longest start an edited event shares with others
    const shared = 'data: {"type":"response.'.length;
    for (let k = 0; k <= stream.length; k++) {
      const r = relay('responses', cutAt(stream, k), recodeFailedResponse);
      expect(r.out, `cut ${k}`).toBe(stream.toString());
      expect(r.heldMost, `cut ${k}`).toBeLessThanOrEqual(shared);
      // the tick that ends the terminal event sees it, also when it began in the tick before
      expect(r.kinds.at(k === stream.length ? 0 : -1), `cut ${k}`).toBe('terminal');
    }
  });

  it('a Chat stream is never held; its [DONE] is its terminal event', () => {
    const chunk = 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n';
    const stream = Buffer.from(chunk + 'data: [DONE]\n\n');
    for (let k = 1; k < stream.length; k++) {
      expect(relay('chat', cutAt(stream, k), () => undefined), `cut ${k}`).toMatchObject({ out: stream.toString(), heldMost: 0, kinds: [undefined, 'terminal'] });
    }
  });

  it('an edited event longer than HOLD_LIMIT goes out as it comes; the stream’s end lets held bytes go', () => {
    const long = Buffer.from(`event: response.failed\ndata: {"type":"response.failed","response":{"instructions":"${'x'.repeat(2 * HOLD_LIMIT)}"}}\n\n`);
    const r = relay('responses', [[long.subarray(0, 100)], [long.subarray(100, HOLD_LIMIT + 200)], [long.subarray(HOLD_LIMIT + 200)]], recodeFailedResponse);
    expect(r.out).toBe(long.toString());
    expect(r.heldMost).toBe(100);
    // one tick of more than HOLD_LIMIT bytes of a cut failed response: out as it came, and not taken for the stream's end
    // before the tick that ends it
    const tail = relay('responses', [[long.subarray(0, HOLD_LIMIT + 200)], [long.subarray(HOLD_LIMIT + 200)]], recodeFailedResponse);
    expect(tail).toMatchObject({ out: long.toString(), kinds: [undefined, 'terminal'], heldMost: 0 });
    const cut = 'event: error\ndata: {"type":"error","code":"server_is_ov';
    expect(relay('responses', [[Buffer.from(cut)]], recodeFailedResponse)).toMatchObject({ out: cut, heldMost: cut.length });
  });
});

describe('LastEventWatch: the kind of a tick’s last event', () => {
  const kindOf = (dialect: Dialect, ...ticks: string[]) => relay(dialect, ticks.map((t) => [Buffer.from(t)]), () => undefined).kinds.at(-1);

  it('finds each dialect’s terminal, with or without its event line', () => {
    expect(kindOf('chat', 'data: {"choices":[]}\n\n', 'data: [DONE]\n\n')).toBe('terminal');
    expect(kindOf('messages', 'event: message_delta\ndata: {}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe('terminal');
    expect(kindOf('messages', 'data: {"type":"message_stop"}\n\n')).toBe('terminal');
    expect(kindOf('responses', 'event: response.completed\ndata: {"type":"response.completed","response":{}}\n\n')).toBe('terminal');
    expect(kindOf('responses', 'data: {"type":"response.incomplete","response":{}}\n\n')).toBe('terminal');
  });

  it('is not fooled: another event, a tick that stops mid-event, an event begun in bytes that went out as another', () => {
    expect(kindOf('messages', 'event: message_delta\ndata: {"type":"message_delta"}\n\n')).toBeUndefined();
    expect(kindOf('responses', 'event: response.content_part.done\ndata: {}\n\n')).toBeUndefined();
    expect(kindOf('chat', 'data: [DONE]\n')).toBeUndefined();
    expect(kindOf('messages', 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"', 'event: message_stop"}}\n\n')).toBeUndefined();
    expect(kindOf('responses', 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"', 'x', '\n', '\n')).toBeUndefined();
    // a cut terminal event, then a whole other one: the last is judged, not the cut one
    expect(kindOf('chat', 'data: [DONE]\n', '\ndata: {"x":1}\n\n')).toBeUndefined();
  });

  it('a terminal event whose end comes in later reads: its closing line alone, its last bytes, its start too short to tell', () => {
    expect(kindOf('chat', 'data: {"x":1}\n\ndata: [DONE]\n', '\n')).toBe('terminal');
    expect(kindOf('chat', 'data: {"x":1}\n\ndata: [DO', 'NE]\n\n')).toBe('terminal');
    expect(kindOf('chat', 'data: {"x":1}\n\ndata: [', 'DO', 'NE]', '\n', '\n')).toBe('terminal');
    expect(kindOf('messages', 'event: message_stop\ndata: {"type":"message_stop"}\n', '\n')).toBe('terminal');
    expect(kindOf('messages', 'data: {"type":"message_st', 'op"}\n\n')).toBe('terminal');
    const completed = 'event: response.completed\ndata: {"type":"response.completed","response":{"output":[{"text":"' + 'long answer '.repeat(50) + '"}]}}\n\n';
    for (let k = 1; k < completed.length; k++) {
      expect(kindOf('responses', completed.slice(0, k), completed.slice(k)), `cut ${k}`).toBe('terminal');
      const third = k + Math.floor((completed.length - k) / 2);
      if (third > k && third < completed.length) expect(kindOf('responses', completed.slice(0, k), completed.slice(k, third), completed.slice(third)), `cut ${k}, ${third}`).toBe('terminal');
    }
  });

  it('says when the kind it found is a cut event’s, judged by its remembered start: the relay then skips the edit, which has only its tail to read', () => {
    const judge = (dialect: Dialect, ...ticks: string[]) => {
      const watch = new LastEventWatch(dialect);
      const seen = ticks.map((t) => [watch.take([Buffer.from(t)], false), watch.endedCut] as const);
      return seen.at(-1);
    };
    expect(judge('chat', 'data: {"x":1}\n\ndata: [DONE]\n', '\n')).toEqual(['terminal', true]);
    expect(judge('messages', 'data: {"type":"message_st', 'op"}\n\n')).toEqual(['terminal', true]);
    const completed = 'event: response.completed\ndata: {"type":"response.completed","response":{"output":[{"text":"' + 'x'.repeat(200) + '"}]}}\n\n';
    expect(judge('responses', completed.slice(0, 100), completed.slice(100))).toEqual(['terminal', true]);
    // a whole event, or a cut one held until it is whole (a failed response may need its code): the edit reads it
    expect(judge('chat', 'data: {"x":1}\n\n', 'data: [DONE]\n\n')).toEqual(['terminal', false]);
    const failed = 'event: response.failed\ndata: {"type":"response.failed","response":{"error":{"code":"slow_down"}}}\n\n';
    expect(judge('responses', failed.slice(0, 30), failed.slice(30))).toEqual(['terminal', false]);
    // and the next tick starts afresh
    const watch = new LastEventWatch('chat');
    watch.take([Buffer.from('data: [DONE]\n')], false);
    expect(watch.take([Buffer.from('\n')], false)).toBe('terminal');
    expect(watch.endedCut).toBe(true);
    expect(watch.take([Buffer.from('data: {"x":2}\n\n')], false)).toBeUndefined();
    expect(watch.endedCut).toBe(false);
  });

  it('an error event: Messages’ and Responses’ (the relay edits them), not Chat’s (chat-error-watch.ts)', () => {
    const error = 'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"m"}}\n\n';
    expect(kindOf('messages', `event: ping\ndata: {"type":"ping"}\n\n${error}`)).toBe('error');
    expect(kindOf('messages', 'data: {"type":"error","error":{"type":"overloaded_error","message":"m"}}\n\n')).toBe('error');
    expect(kindOf('responses', 'data: {"type":"error","code":"server_error","message":"m"}\n\n')).toBe('error');
    expect(kindOf('messages', `${error}event: ping\ndata: {"type":"ping"}\n\n`)).toBeUndefined();
    expect(kindOf('chat', 'event: error\ndata: {"error":{"message":"m"}}\n\n')).toBeUndefined();
  });

  it('a last event written in several pieces of one tick is judged whole, and is one piece for the edit', () => {
    const watch = new LastEventWatch('responses');
    const pending: (string | Buffer)[] = [Buffer.from('event: response.failed\ndata: {"type":"resp'), Buffer.from('onse.failed","response":{"error":{"code":"slow_down"}}}\n\n')];
    expect(watch.take(pending, false)).toBe('terminal');
    recodeFailedResponse(pending);
    expect(Buffer.concat(pending as Buffer[]).toString()).toBe('event: response.failed\ndata: {"type":"response.failed","response":{"error":{"code":"rate_limit_exceeded"}}}\n\n');
  });
});
