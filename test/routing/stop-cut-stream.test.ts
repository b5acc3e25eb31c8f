/**
 * Stop sequences held by routing for targets that cannot take them (stop-cut-stream.ts,
 * stop-match.ts): found however the text is cut into deltas and the stream into bytes, with no
 * more text held back than may begin a stop sequence.
 */
import { describe, expect, it } from 'vitest';
import type { HubEvent } from '../../src/protocols/hub.js';
import { chatCodec } from '../../src/protocols/chat/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { SseParser } from '../../src/protocols/sse.js';
import { firstStop, startOfStopAtEnd } from '../../src/routing/stop-match.js';
import { StopCutStream } from '../../src/routing/stop-cut-stream.js';

type Delta = Extract<HubEvent, { type: 'text_delta' }>;

/** The text deltas of `pieces` through a cutter: what went out, and the events after the text. */
function run(pieces: string[], stops: string[]): { text: string; events: HubEvent[]; lag: number } {
  const cut = new StopCutStream(stops);
  const input: HubEvent[] = [{ type: 'start', id: 'r' }, { type: 'block_start', index: 0, block: { type: 'text' } }];
  for (const p of pieces) input.push({ type: 'text_delta', index: 0, text: p });
  input.push({ type: 'block_stop', index: 0 }, { type: 'finish', stopReason: 'end_turn' });
  let text = '';
  let given = 0;
  let lag = 0;
  const events: HubEvent[] = [];
  for (const ev of input) {
    if (ev.type === 'text_delta') given += ev.text.length;
    for (const out of cut.map(ev)) {
      if (out.type === 'text_delta') text += (out as Delta).text;
      else events.push(out);
    }
    if (!cut.cut) lag = Math.max(lag, given - text.length);
  }
  return { text, events, lag };
}

/** Every way to cut `text` in two, and one piece per character. */
function cuttings(text: string): string[][] {
  const out: string[][] = [[text], text.split('')];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

describe('firstStop and startOfStopAtEnd', () => {
  it('the stop completed first wins; of two ending together, the longer', () => {
    expect(firstStop('xabcd', ['abcd', 'bc'])).toEqual({ at: 2, stop: 'bc' });
    expect(firstStop('xabc', ['bc', 'abc'])).toEqual({ at: 1, stop: 'abc' });
    expect(firstStop('nothing here', ['END'])).toBeUndefined();
  });

  it('holds only an end that begins a stop, shorter than the stop', () => {
    expect(startOfStopAtEnd('abc EN', ['END'])).toBe(2);
    expect(startOfStopAtEnd('abc E', ['END', '\n\n'])).toBe(1);
    expect(startOfStopAtEnd('abc\n', ['END', '\n\n'])).toBe(1);
    expect(startOfStopAtEnd('abc', ['END'])).toBe(0);
    expect(startOfStopAtEnd('x', ['x'])).toBe(0);
  });
});

describe('StopCutStream', () => {
  const text = 'Il fait beau ☀️ aujourd’hui.\n\nEND\nEt demain ?';

  it('cuts at the stop however the text comes in deltas, and ends the answer there', () => {
    for (const pieces of cuttings(text)) {
      const { text: sent, events } = run(pieces, ['END']);
      expect(sent, JSON.stringify(pieces)).toBe('Il fait beau ☀️ aujourd’hui.\n\n');
      expect(events.slice(-2)).toEqual([{ type: 'block_stop', index: 0 }, { type: 'finish', stopReason: 'stop_sequence', stopSequence: 'END' }]);
    }
  });

  it('a whitespace stop and the first of several', () => {
    for (const pieces of cuttings(text)) {
      const { text: sent, events } = run(pieces, ['demain', '\n\n']);
      expect(sent).toBe('Il fait beau ☀️ aujourd’hui.');
      expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'stop_sequence', stopSequence: '\n\n' });
    }
  });

  it('no stop in the text: all of it, the upstream finish as it was, at most longest − 1 held', () => {
    for (const pieces of cuttings(text)) {
      const { text: sent, events, lag } = run(pieces, ['ENDING', 'x']);
      expect(sent).toBe(text);
      expect(events.at(-1)).toEqual({ type: 'finish', stopReason: 'end_turn' });
      expect(lag).toBeLessThanOrEqual(5);
    }
  });

  it('every cut of the text into three deltas gives what the whole text cut at its first stop gives, overlapping stops too', () => {
    const stops = ['ENDING', 'DIN', 'N\n', 'NDE'];
    for (const whole of ['abc ENDING x', 'abENDIN\ny', 'a ENDE b', 'nothing END here']) {
      const match = firstStop(whole, stops);
      const expected = match === undefined ? whole : whole.slice(0, match.at);
      for (let i = 0; i <= whole.length; i++) {
        for (let j = i; j <= whole.length; j++) {
          const pieces = [whole.slice(0, i), whole.slice(i, j), whole.slice(j)].filter((p) => p !== '');
          const { text: sent, events } = run(pieces, stops);
          expect(sent, JSON.stringify(pieces)).toBe(expected);
          expect(events.at(-1)).toEqual(match === undefined ? { type: 'finish', stopReason: 'end_turn' } : { type: 'finish', stopReason: 'stop_sequence', stopSequence: match.stop });
        }
      }
    }
  });

  it('the delta the stop is in keeps the tokens of the text before it only', () => {
    const tok = (token: string): { token: string; logprob: number; top: [] } => ({ token, logprob: -0.5, top: [] });
    const cut = new StopCutStream(['END']);
    expect(cut.map({ type: 'text_delta', index: 0, text: 'Hi E', logprobs: [tok('Hi'), tok(' E')] })).toEqual([{ type: 'text_delta', index: 0, text: 'Hi ', logprobs: [tok('Hi'), tok(' E')] }]);
    // the held "E" was no stop; this delta's tokens are counted from its own start
    expect(cut.map({ type: 'text_delta', index: 0, text: 'xy END more', logprobs: [tok('xy'), tok(' END'), tok(' more')] })[0]).toEqual({ type: 'text_delta', index: 0, text: 'Exy ', logprobs: [tok('xy'), tok(' END')] });
    const again = new StopCutStream(['END']);
    expect(again.map({ type: 'text_delta', index: 0, text: 'Hi END more', logprobs: [tok('Hi'), tok(' END'), tok(' more')] })[0]).toEqual({ type: 'text_delta', index: 0, text: 'Hi ', logprobs: [tok('Hi'), tok(' END')] });
  });

  it('nothing is held when no end of the text begins a stop', () => {
    const { lag } = run(['abc', 'def', 'ghi'], ['XYZ']);
    expect(lag).toBe(0);
  });

  it('events after the stop (more text, a call, the upstream finish) are dropped', () => {
    const cut = new StopCutStream(['END']);
    cut.map({ type: 'block_start', index: 0, block: { type: 'text' } });
    expect(cut.map({ type: 'text_delta', index: 0, text: 'aEND' })).toEqual([
      { type: 'text_delta', index: 0, text: 'a' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'stop_sequence', stopSequence: 'END' },
    ]);
    expect(cut.cut).toBe(true);
    expect(cut.map({ type: 'block_start', index: 1, block: { type: 'function_call', callId: 'c', name: 'n' } })).toEqual([]);
    expect(cut.map({ type: 'finish', stopReason: 'end_turn' })).toEqual([]);
  });

  it('a Responses stream cut at every byte, to a Chat client: the same cut answer', () => {
    const events = [
      { type: 'response.created', response: { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-5', output: [] } },
      { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', output_index: 0, content_index: 0, item_id: 'msg_1', part: { type: 'output_text', text: '', annotations: [] } },
      ...['Il fait ', 'beau ☀️ E', 'N', 'D et ', 'demain'].map((delta) => ({ type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'msg_1', delta })),
      { type: 'response.completed', response: { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', model: 'gpt-5', output: [], usage: { input_tokens: 3, output_tokens: 9, total_tokens: 12 } } },
    ];
    const bytes = Buffer.from(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''));
    const decoder = responsesCodec.createStreamDecoder();
    const encoder = chatCodec.createStreamEncoder({ model: 'openai/gpt-5', created: 1 });
    const cut = new StopCutStream(['END']);
    let out = '';
    const parser = new SseParser((e) => {
      for (const ev of decoder.push(e)) for (const each of cut.map(ev)) out += encoder.encode(each);
    });
    for (let i = 0; i < bytes.length; i++) parser.push(bytes.subarray(i, i + 1));
    const chunks = out
      .split('\n\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)) as { choices: Array<{ delta: { content?: string }; finish_reason: string | null }> });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Il fait beau ☀️ ');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(cut.cut).toBe(true);
  });
});
