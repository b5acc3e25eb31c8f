import { describe, expect, it } from 'vitest';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { decodeChunks, everySplit, splitAt } from '../shared/helpers.js';
import { fixtureBytes, fixtureJson, fixtureNames } from './helpers.js';
import { codeForStatus } from '../../../src/protocols/upstream-codes.js';

const names = fixtureNames('streams', '.sse');

describe('Messages stream decoder (upstream SSE → hub events)', () => {
  it('has the stream fixtures', () => {
    expect(names).toEqual(['cut-short', 'error-mid-stream', 'redacted-server-tool', 'thinking-text-tool']);
  });

  for (const name of names) {
    const bytes = fixtureBytes(`streams/${name}.sse`);
    const expected = fixtureJson<HubEvent[]>(`streams/${name}.events.json`);

    it(`${name}: whole body`, () => {
      expect(decodeChunks(messagesCodec.createStreamDecoder(), [bytes])).toEqual(expected);
    });

    it(`${name}: the same events however the bytes are cut (every offset incl. inside UTF-8 sequences, byte by byte, 300 random cuts)`, () => {
      for (const pieces of everySplit(bytes, 300, name.length * 7919)) {
        const got = decodeChunks(messagesCodec.createStreamDecoder(), pieces);
        if (JSON.stringify(got) !== JSON.stringify(expected)) expect({ cut: pieces.map((p) => p.length), got }).toEqual({ cut: pieces.map((p) => p.length), got: expected });
      }
    });
  }

  it('keeps multi-byte characters intact when the split falls inside one', () => {
    const bytes = fixtureBytes('streams/thinking-text-tool.sse');
    const at = bytes.indexOf(Buffer.from('🌧️')) + 2; // in the middle of the 4-byte emoji
    const events = decodeChunks(messagesCodec.createStreamDecoder(), splitAt(bytes, [at]));
    expect(events).toContainEqual({ type: 'reasoning_delta', index: 0, text: 'Need weather for 東京 🌧️' });
  });

  it('emits nothing after the terminal event and nothing more at end()', () => {
    const d = messagesCodec.createStreamDecoder();
    decodeChunks(d, [fixtureBytes('streams/thinking-text-tool.sse')]);
    expect(d.push({ event: 'content_block_start', data: '{"type":"content_block_start","index":9,"content_block":{"type":"text","text":"x"}}' })).toEqual([]);
    expect(d.end()).toEqual([]);
  });

  it('an empty text block is no block (as the whole answer decodes it); one given text later opens then', () => {
    const ev = (data: object) => ({ event: (data as { type: string }).type, data: JSON.stringify(data) });
    const d = messagesCodec.createStreamDecoder();
    const events = [
      { type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 3, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ].flatMap((e) => d.push(ev(e)));
    expect(events.filter((e) => e.type !== 'start' && e.type !== 'finish')).toEqual([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: 'Hi' },
      { type: 'block_stop', index: 0 },
    ]);
  });

  it('turns a malformed event into a final 502 error', () => {
    const d = messagesCodec.createStreamDecoder();
    expect(d.push({ event: 'message_start', data: '{"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":3}}}' })).toHaveLength(1);
    const out = d.push({ event: 'content_block_delta', data: '{not json' });
    expect(out).toEqual([{ type: 'error', error: expect.objectContaining({ status: 502, code: 'upstream_invalid_response' }) }]);
    expect(d.end()).toEqual([]);
  });

  it('maps error types to statuses', () => {
    const cases: Array<[string, number]> = [
      ['rate_limit_error', 429],
      ['api_error', 500],
      ['authentication_error', 401],
      ['invalid_request_error', 400],
      ['something_new', 502],
    ];
    for (const [type, status] of cases) {
      const d = messagesCodec.createStreamDecoder();
      const out = d.push({ event: 'error', data: JSON.stringify({ type: 'error', error: { type, message: 'm' } }) });
      expect(out).toEqual([{ type: 'error', error: { status, code: codeForStatus(status), message: 'm' } }]);
    }
  });

  it('closes blocks the upstream left open, and starts when content precedes message_start', () => {
    const d = messagesCodec.createStreamDecoder();
    const out = [
      ...d.push({ data: '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_9","name":"f","input":{"a":1}}}' }),
      ...d.push({ data: '{"type":"message_stop"}' }),
    ];
    expect(out).toEqual([
      { type: 'start' },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'toolu_9', name: 'f' } },
      { type: 'arguments_delta', index: 0, json: '{"a":1}' },
      { type: 'block_stop', index: 0 },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
  });

  it('a text block’s citation of a page a search found is a citation event; citations of documents are not', () => {
    const page = { type: 'web_search_result_location', url: 'https://example.com/a', title: 'A page', cited_text: 'x', encrypted_index: 'Eo8B' };
    const d = messagesCodec.createStreamDecoder();
    d.push({ data: '{"type":"message_start","message":{"id":"msg_1"}}' });
    const started = d.push({ data: JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: [{ ...page, title: null }] } }) });
    const delta = (citation: unknown) => d.push({ data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation } }) });
    expect(started).toEqual([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'citation', index: 0, citation: { url: 'https://example.com/a' } },
    ]);
    expect(delta(page)).toEqual([{ type: 'citation', index: 0, citation: { url: 'https://example.com/a', title: 'A page' } }]);
    expect(delta({ type: 'char_location', cited_text: 'x', document_index: 0, start_char_index: 0, end_char_index: 1 })).toEqual([]);
    expect(delta({ type: 'web_search_result_location' })).toEqual([]);
  });

  it('reads our reasoning envelope in a signature back into its origin', async () => {
    const { packOrigin } = await import('../../../src/protocols/reasoning-envelope.js');
    const origin = { kind: 'openai' as const, id: 'rs_1', encryptedContent: 'gAAAA' };
    const d = messagesCodec.createStreamDecoder();
    d.push({ data: '{"type":"message_start","message":{"id":"msg_1"}}' });
    d.push({ data: '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}' });
    const out = d.push({ data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: packOrigin(origin) } }) });
    expect(out).toEqual([{ type: 'reasoning_origin', index: 0, origin }]);
  });
});
