/**
 * The paused content rebuilt from a Messages stream must be the content the whole answer carries
 * (pause-continue.ts sends it back verbatim): every block kind, the stream cut at every byte.
 */
import { describe, expect, it } from 'vitest';
import { MessageContentAccumulator } from '../../../src/protocols/messages/content-accumulate.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';

const search = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_01A',
  content: [{ type: 'web_search_result', url: 'https://example.com/a', title: 'A "quoted" page', encrypted_content: 'EqSecret==', page_age: null }],
};
const citation = { type: 'web_search_result_location', url: 'https://example.com/a', title: 'A', encrypted_index: 'Eo1', cited_text: 'a fact' };

/** The whole answer's content, as Anthropic would return it without streaming. */
const WHOLE = [
  { type: 'thinking', thinking: 'Let me search. Then answer — with ünïcode.', signature: 'EqSig123' },
  { type: 'server_tool_use', id: 'srvtoolu_01A', name: 'web_search', input: { query: 'svc "proxy"' } },
  search,
  { type: 'text', text: 'It is so.', citations: [citation] },
  { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: { city: 'Zürich', days: [1, 2] } },
  { type: 'tool_use', id: 'toolu_01C', name: 'no_args', input: {} },
];

function event(data: unknown): string {
  const type = (data as { type: string }).type;
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The same content as Anthropic streams it (deltas split in small pieces, pings between). */
function streamText(): string {
  const ev: unknown[] = [
    { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Let me search. ' } },
    { type: 'ping' },
    { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Then answer — with ünïcode.' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqSig123' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_01A', name: 'web_search', input: {} } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"query": "svc' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ' \\"proxy\\""}' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: search },
    { type: 'content_block_stop', index: 2 },
    { type: 'content_block_start', index: 3, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 3, delta: { type: 'citations_delta', citation } },
    { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'It is ' } },
    { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'so.' } },
    { type: 'content_block_stop', index: 3 },
    { type: 'content_block_start', index: 4, content_block: { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: {} } },
    { type: 'content_block_delta', index: 4, delta: { type: 'input_json_delta', partial_json: '' } },
    { type: 'content_block_delta', index: 4, delta: { type: 'input_json_delta', partial_json: '{"city":"Zür' } },
    { type: 'content_block_delta', index: 4, delta: { type: 'input_json_delta', partial_json: 'ich","days":[1,2]}' } },
    { type: 'content_block_stop', index: 4 },
    { type: 'content_block_start', index: 5, content_block: { type: 'tool_use', id: 'toolu_01C', name: 'no_args', input: {} } },
    { type: 'content_block_stop', index: 5 },
    { type: 'message_delta', delta: { stop_reason: 'pause_turn', stop_sequence: null }, usage: { output_tokens: 40 } },
    { type: 'message_stop' },
  ];
  return ev.map(event).join('');
}

function accumulate(chunks: Buffer[]): unknown[] {
  const acc = new MessageContentAccumulator();
  const parser = new SseParser((ev: SseEvent) => acc.push(ev));
  for (const c of chunks) parser.push(c);
  parser.end();
  return acc.blocks();
}

describe('MessageContentAccumulator', () => {
  it('rebuilds the whole answer’s content from its stream: thinking and signature, server tool use and result, citations, tool inputs', () => {
    expect(accumulate([Buffer.from(streamText())])).toEqual(WHOLE);
  });

  it('the same content whatever byte the stream is cut at', () => {
    const bytes = Buffer.from(streamText());
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(accumulate([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(WHOLE);
    }
  });

  it('a second stream (the continuation) appends its blocks after the first’s; a block left open is closed as it stands', () => {
    const acc = new MessageContentAccumulator();
    const parser = new SseParser((ev) => acc.push(ev));
    parser.push(Buffer.from(streamText()));
    parser.push(Buffer.from([
      event({ type: 'message_start', message: { id: 'msg_2', content: [] } }),
      event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'More.' } }),
      event({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01D', name: 'cut', input: {} } }),
      event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } }),
    ].join('')));
    expect(acc.blocks()).toEqual([...WHOLE, { type: 'text', text: 'More.' }, { type: 'tool_use', id: 'toolu_01D', name: 'cut', input: {} }]);
  });

  it('ignores what is not a block event: pings, malformed data, deltas of blocks never started', () => {
    const acc = new MessageContentAccumulator();
    acc.push({ event: 'ping', data: '{"type":"ping"}' });
    acc.push({ data: 'not json' });
    acc.push({ data: '[1,2]' });
    acc.push({ data: JSON.stringify({ type: 'content_block_delta', index: 7, delta: { type: 'text_delta', text: 'x' } }) });
    acc.push({ data: JSON.stringify({ type: 'content_block_stop', index: 7 }) });
    expect(acc.blocks()).toEqual([]);
  });
});
