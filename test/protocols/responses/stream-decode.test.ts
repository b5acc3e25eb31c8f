import { describe, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { fixtureNames, jsonFixture, readFixture } from './fixtures.js';
import { decodeChunks as replay, everySplit } from '../shared/helpers.js';

const fixtures = fixtureNames('stream-decode', '.sse');

describe('responses stream decoder: fixtures split at every byte', () => {
  it('has the fixtures this suite promises', () => {
    expect(fixtures).toEqual(['error-event', 'failed', 'incomplete', 'open-weight', 'reasoning-call-message', 'truncated']);
  });

  for (const name of fixtures) {
    const bytes = new Uint8Array(Buffer.from(readFixture('stream-decode', `${name}.sse`), 'utf8'));
    const expected = jsonFixture<HubEvent[]>('stream-decode', `${name}.events.json`);

    it(`${name}: whole body`, () => {
      expect(replay(responsesCodec.createStreamDecoder(), [bytes])).toEqual(expected);
    });

    it(`${name}: the same events however the bytes are cut (every offset, byte by byte, random cuts)`, () => {
      // The fixture holds multi-byte UTF-8 characters, so some cuts land inside one.
      expect(bytes.length).toBeGreaterThan(readFixture('stream-decode', `${name}.sse`).length);
      for (const pieces of everySplit(bytes, 200, name.length)) {
        const got = replay(responsesCodec.createStreamDecoder(), pieces);
        if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ cut: pieces.map((p) => p.length), got }).toEqual({ cut: pieces.map((p) => p.length), got: expected });
      }
    });
  }
});

describe('responses stream decoder: robustness', () => {
  const decode = (...events: Array<Record<string, unknown> | string>): HubEvent[] => {
    const d = responsesCodec.createStreamDecoder();
    const out: HubEvent[] = [];
    for (const e of events) out.push(...d.push({ data: typeof e === 'string' ? e : JSON.stringify(e) }));
    out.push(...d.end());
    return out;
  };

  it('a malformed event ends the stream with an upstream_error, then ignores the rest', () => {
    const got = decode({ type: 'response.created', response: { id: 'r' } }, '{not json', { type: 'response.completed', response: { status: 'completed' } });
    expect(got).toEqual([
      { type: 'start', id: 'r' },
      { type: 'error', error: { status: 502, code: 'upstream_error', message: 'The upstream sent a malformed stream event (not JSON).' } },
    ]);
  });

  it('an empty body is an incomplete stream', () => {
    expect(decode()).toEqual([
      { type: 'error', error: { status: 502, code: 'upstream_stream_incomplete', message: 'The upstream stream ended before response.completed.' } },
    ]);
  });

  it('starts lazily when response.created is missing, and reads a nested error event', () => {
    const got = decode(
      { type: 'response.output_item.added', output_index: 0, item: { type: 'function_call', call_id: 'c', name: 'f', arguments: '' } },
      { type: 'error', error: { code: 'invalid_prompt', message: 'Bad prompt' } },
    );
    expect(got).toEqual([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: 'f' } },
      { type: 'error', error: { status: 400, code: 'upstream_error', message: 'Bad prompt (invalid_prompt)' } },
    ]);
  });

  it('reads a content_filter incomplete as refusal and a lone refusal part as refusal', () => {
    const a = decode({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'content_filter' } } });
    expect(a.at(-1)).toEqual({ type: 'finish', stopReason: 'refusal' });
    const b = decode(
      { type: 'response.output_item.added', output_index: 0, item: { type: 'message', content: [] } },
      { type: 'response.content_part.added', output_index: 0, content_index: 0, part: { type: 'refusal', refusal: '' } },
      { type: 'response.refusal.delta', output_index: 0, content_index: 0, delta: 'No.' },
      { type: 'response.refusal.done', output_index: 0, content_index: 0, refusal: 'No.' },
      { type: 'response.completed', response: { status: 'completed' } },
    );
    expect(b).toEqual([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'refusal' } },
      { type: 'refusal_delta', index: 0, text: 'No.' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'refusal' },
    ]);
  });

  it('carries an envelope from encrypted_content back to its origin', () => {
    const ec = 'svcp1.eyJraW5kIjoiYW50aHJvcGljIiwic2lnbmF0dXJlIjoiRXFRQkNrWUlCeGdDS2tEc2lnIn0';
    const got = decode(
      { type: 'response.output_item.added', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [] } },
      { type: 'response.output_item.done', output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'T' }], encrypted_content: ec } },
      { type: 'response.completed', response: { status: 'completed' } },
    );
    expect(got).toEqual([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 0, text: 'T' },
      { type: 'reasoning_origin', index: 0, origin: { kind: 'anthropic', signature: 'EqQBCkYIBxgCKkDsig' } },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
  });

  it('never turns reasoning into text events', () => {
    const bytes = Buffer.from(readFixture('stream-decode', 'reasoning-call-message.sse'));
    const events = replay(responsesCodec.createStreamDecoder(), [bytes]);
    const reasoningBlocks = new Set(events.filter((e) => e.type === 'block_start' && e.block.type === 'reasoning').map((e) => (e as { index: number }).index));
    for (const e of events) {
      if (e.type === 'text_delta') {
        expect(reasoningBlocks.has(e.index)).toBe(false);
        expect(e.text).not.toContain('météo');
      }
    }
  });
});
