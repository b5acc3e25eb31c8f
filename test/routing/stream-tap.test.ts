import { describe, expect, it } from 'vitest';
import { reasoningDetailsScan } from '../../src/routing/reasoning-details-scan.js';
import { StreamTap, thinkingSignatureScan, thoughtSignatureScan } from '../../src/routing/stream-tap.js';

const chatStream = [
  ...Array.from({ length: 200 }, (_, i) => `data: {"id":"c","choices":[{"index":0,"delta":{"content":"tok${i} \\"usage\\": {"}}],"usage":null}\n\n`),
  'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}\n\n',
  'data: {"id":"c","choices":[],"usage": {"prompt_tokens":120,"completion_tokens":30,"prompt_tokens_details":{"cached_tokens":64},"completion_tokens_details":{"reasoning_tokens":12}}}\n\n',
  'data: [DONE]\n\n',
].join('');

const messagesStream = [
  'event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":40,"cache_creation_input_tokens":5,"cache_read_input_tokens":80,"output_tokens":1}}}\n\n',
  'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hé🎉"}}\n\n',
  'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
  'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":90,"output_tokens_details":{"thinking_tokens":50}}}\n\n',
  'event: message_stop\ndata: {"type":"message_stop"}\n\n',
].join('');

const responsesStream = [
  'event: response.created\ndata: {"type":"response.created","sequence_number":0,"response":{"id":"r","status":"in_progress","error":null,"usage":null,"tools":[{"type":"function","name":"f","parameters":{"properties":{"usage":{"type":"string"}}}}]}}\n\n',
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":1,"delta":"x"}\n\n',
  'event: response.completed\ndata: {"type":"response.completed","sequence_number":2,"response":{"id":"r","status":"completed","error":null,"usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":64},"output_tokens":30,"output_tokens_details":{"reasoning_tokens":12}}}}\n\n',
].join('');

function feed(tap: StreamTap, text: string, cuts: number[]): boolean {
  const buf = Buffer.from(text);
  let prev = 0;
  for (const c of [...cuts, buf.length]) {
    tap.push(buf.subarray(prev, c));
    prev = c;
  }
  return tap.finish();
}

describe('StreamTap', () => {
  const cases = [
    ['chat', chatStream, { input: 120, output: 30, cached: 64, reasoning: 12 }],
    ['messages', messagesStream, { input: 125, output: 90, cached: 80, reasoning: 50 }],
    ['responses', responsesStream, { input: 120, output: 30, cached: 64, reasoning: 12 }],
  ] as const;

  for (const [dialect, text, usage] of cases) {
    it(`${dialect}: usage and terminal event, whole and split at every byte`, () => {
      const whole = new StreamTap(dialect);
      expect(feed(whole, text, [])).toBe(true);
      expect(whole.usage).toEqual(usage);
      const bytes = Buffer.byteLength(text);
      const step = dialect === 'chat' ? 7 : 1; // the chat stream is long: every 7th byte still covers all phases
      for (let i = 1; i < bytes; i += step) {
        const tap = new StreamTap(dialect);
        expect(feed(tap, text, [i]), `cut ${i}`).toBe(true);
        expect(tap.usage, `cut ${i}`).toEqual(usage);
        expect(tap.error).toBeUndefined();
      }
    });
  }

  it('byte-by-byte feeding gives the same usage', () => {
    const tap = new StreamTap('messages');
    const cuts = Array.from({ length: Buffer.byteLength(messagesStream) - 1 }, (_, i) => i + 1);
    expect(feed(tap, messagesStream, cuts)).toBe(true);
    expect(tap.usage?.input).toBe(125);
  });

  it('parses only the first event and the last few, however long the stream', () => {
    const original = JSON.parse;
    let parses = 0;
    JSON.parse = ((...args: Parameters<typeof JSON.parse>) => {
      parses++;
      return original(...args);
    }) as typeof JSON.parse;
    const long = chatStream.replace(/^(data: [^\n]*\n\n)/, (m) => m.repeat(5000));
    let tap: StreamTap;
    try {
      tap = new StreamTap('chat');
      for (const event of long.split(/(?<=\n\n)/)) tap.push(Buffer.from(event));
      expect(tap.finish()).toBe(true);
    } finally {
      JSON.parse = original;
    }
    expect(parses).toBeLessThanOrEqual(5);
    expect(tap.usage?.input).toBe(120);
  });

  for (const size of [600, 20_000, 200_000]) {
    it(`a last Responses event of ${size} bytes: terminal, and its usage read`, () => {
      const big = 'x'.repeat(size);
      const text = responsesStream.replace('"status":"completed",', `"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"${big}"}]}],`);
      for (const step of [1000, 4000, 1 << 20]) {
        const tap = new StreamTap('responses');
        const cuts = [];
        for (let c = step; c < text.length; c += step) cuts.push(c);
        expect(feed(tap, text, cuts), `step ${step}`).toBe(true);
        expect(tap.usage).toEqual({ input: 120, output: 30, cached: 64, reasoning: 12 });
      }
    });
  }

  it('the opening is pending until its first data line is whole: comments and a cut event do not end it', () => {
    const error = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const text = ': OPENROUTER PROCESSING\n\n' + error;
    const lineEnd = Buffer.byteLength(text) - 2; // the data line's own line end
    for (let i = 1; i < Buffer.byteLength(text); i++) {
      const tap = new StreamTap('messages');
      const buf = Buffer.from(text);
      tap.push(buf.subarray(0, i));
      expect(tap.headPending, `cut ${i}`).toBe(i <= lineEnd);
      if (i <= lineEnd) expect(tap.opening, `cut ${i}`).toBe(undefined);
      tap.push(buf.subarray(i));
      expect(tap.headPending).toBe(false);
      expect(tap.opening).toMatchObject({ impliedStatus: 529 });
    }
  });

  describe('holdEnvelope: the opening is the first event past the envelope', () => {
    const overloaded = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const start = messagesStream.slice(0, messagesStream.indexOf('event: content_block_start'));
    const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
    const created = responsesStream.slice(0, responsesStream.indexOf('event: response.output_text.delta'));
    const inProgress = 'event: response.in_progress\ndata: {"type":"response.in_progress","sequence_number":1,"response":{"id":"r","status":"in_progress"}}\n\n';
    const failed = 'event: error\ndata: {"type":"error","sequence_number":2,"code":"server_error","message":"boom"}\n\n';
    const role = 'data: {"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n';
    const chatError = 'data: {"error":{"code":502,"message":"Provider returned error"}}\n\n';
    const cases = [
      ['messages', start + ping + overloaded, 529],
      ['responses', created + inProgress + failed, 500],
      ['chat', ': OPENROUTER PROCESSING\n\n' + role + chatError, 502],
    ] as const;

    for (const [dialect, text, status] of cases) {
      it(`${dialect}: an error after the envelope is the opening, at every cut`, () => {
        const buf = Buffer.from(text);
        const lineEnd = buf.length - 2; // the error's data line ends there
        for (let i = 1; i < buf.length; i++) {
          const tap = new StreamTap(dialect, undefined, true);
          tap.push(buf.subarray(0, i));
          if (i <= lineEnd) {
            expect(tap.opening, `cut ${i}`).toBe(undefined);
            expect(tap.headPending, `cut ${i}`).toBe(true);
          }
          tap.push(buf.subarray(i));
          expect(tap.headPending, `cut ${i}`).toBe(false);
          expect(tap.opening, `cut ${i}`).toMatchObject({ impliedStatus: status });
        }
        // without holdEnvelope, the envelope is the opening: no error there
        const plain = new StreamTap(dialect);
        plain.push(buf);
        expect(plain.opening).toBe(undefined);
        expect(plain.headPending).toBe(false);
      });
    }

    it('content after the envelope ends the head with no opening error; the usage of message_start is read', () => {
      for (const [dialect, text] of [
        ['messages', messagesStream],
        ['responses', responsesStream],
        ['chat', role + chatStream],
      ] as const) {
        const tap = new StreamTap(dialect, undefined, true);
        for (const event of text.split(/(?<=\n\n)/)) tap.push(Buffer.from(event));
        expect(tap.headPending, dialect).toBe(false);
        expect(tap.opening, dialect).toBe(undefined);
        expect(tap.finish(), dialect).toBe(true);
      }
      const tap = new StreamTap('messages', undefined, true);
      tap.push(Buffer.from(start + ping));
      expect(tap.usage?.input).toBe(125);
    });

    it('a Chat chunk that says anything (text, reasoning, a tool call, a finish) is no envelope', () => {
      for (const delta of ['{"content":"a"}', '{"reasoning":"hm"}', '{"tool_calls":[{"index":0,"id":"x"}]}']) {
        const tap = new StreamTap('chat', undefined, true);
        tap.push(Buffer.from(`data: {"choices":[{"index":0,"delta":${delta}}]}\n\n`));
        expect(tap.headPending, delta).toBe(false);
      }
      const finished = new StreamTap('chat', undefined, true);
      finished.push(Buffer.from('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'));
      expect(finished.headPending).toBe(false);
    });
  });

  it('notices a stream cut short, and upstream error events', () => {
    const cut = new StreamTap('messages');
    expect(feed(cut, messagesStream.slice(0, 400), [])).toBe(false);
    const err = new StreamTap('chat');
    feed(err, 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"error":{"message":"boom","type":"server_error"}}\n\n', []);
    expect(err.error).toMatchObject({ message: 'boom', impliedStatus: 500 });
    const named = new StreamTap('chat');
    feed(named, 'data: {"choices":[{"delta":{"content":"a"}}]}\n\nevent: error\ndata: {"message":"boom","type":"server_error"}\n\ndata: [DONE]\n\n', []);
    expect(named.error).toMatchObject({ message: 'boom', impliedStatus: 500 });
  });

  it('hands Gemini thought signatures to the sink', () => {
    const first = 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n';
    const call = 'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"},"extra_content":{"google":{"thought_signature":"CiQBsig"}}}]}}]}\n\n';
    const filler = 'data: {"choices":[{"index":0,"delta":{"content":"' + 'z'.repeat(300) + '"}}]}\n\n';
    const text = first + call + filler.repeat(80) + 'data: [DONE]\n\n';
    for (let i = 1; i < first.length + call.length + 5; i++) {
      const seen = new Map<string, string>();
      feed(new StreamTap('chat', thoughtSignatureScan((id, sig) => seen.set(id, sig))), text, [i]);
      expect([...seen], `cut ${i}`).toEqual([['call_1', 'CiQBsig']]);
    }
  });

  it('hands a Messages stream\'s thinking signatures to the sink, wherever the stream is cut', () => {
    const start = 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":3}}}\n\n';
    const block = 'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}\n\n';
    const thought = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"the signature_delta word in a thought"}}\n\n';
    const sig = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"glm-sig-1"}}\n\n';
    const text = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"' + 'z'.repeat(200) + '"}}\n\n';
    const stop = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';
    const stream = start + block + thought + sig + text.repeat(40) + sig.replace('glm-sig-1', 'glm-sig-2') + stop;
    const head = start.length + block.length + thought.length + sig.length + 5;
    for (let i = 1; i < head; i++) {
      const seen: string[] = [];
      const tap = new StreamTap('messages', thinkingSignatureScan((s) => seen.push(s)));
      expect(feed(tap, stream, [i, head + 3000]), `cut ${i}`).toBe(true);
      expect(seen, `cut ${i}`).toEqual(['glm-sig-1', 'glm-sig-2']);
    }
  });

  it('keeps an OpenRouter stream’s reasoning_details (text in pieces, the signature later) for its tool calls, wherever the stream is cut', () => {
    const chunk = (delta: string, finish = 'null') => `data: {"id":"gen-1","choices":[{"index":0,"delta":${delta},"finish_reason":${finish}}]}\n\n`;
    const stream = [
      chunk('{"role":"assistant","content":"","reasoning":"Think ","reasoning_details":[{"type":"reasoning.text","text":"Think ","format":"anthropic-claude-v1","index":0}]}'),
      chunk('{"reasoning":"hard.","reasoning_details":[{"type":"reasoning.text","text":"hard.","format":"anthropic-claude-v1","index":0}]}'),
      chunk('{"reasoning_details":[{"type":"reasoning.text","signature":"or-sig-1","format":"anthropic-claude-v1","index":0}]}'),
      chunk('{"content":"the word \\"tool_calls\\" in text"}'),
      chunk('{"tool_calls":[{"index":0,"id":"toolu_1","type":"function","function":{"name":"f","arguments":""}}]}'),
      chunk('{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}'),
      chunk('{"tool_calls":[{"index":1,"id":"toolu_2","type":"function","function":{"name":"g","arguments":"{}"}}]}'),
      chunk('{}', '"tool_calls"'),
      'data: [DONE]\n\n',
    ].join('');
    const merged = [{ type: 'reasoning.text', text: 'Think hard.', signature: 'or-sig-1', format: 'anthropic-claude-v1', index: 0 }];
    for (let i = 1; i < stream.length; i += 7) {
      const seen: Array<[readonly string[], unknown[]]> = [];
      const tap = new StreamTap('chat', reasoningDetailsScan((ids, details) => seen.push([ids, details])));
      expect(feed(tap, stream, [i]), `cut ${i}`).toBe(true);
      expect(seen, `cut ${i}`).toEqual([[['toolu_1', 'toolu_2'], merged]]);
    }
    // no tool call, or no reasoning: nothing to keep
    const calls: unknown[] = [];
    feed(new StreamTap('chat', reasoningDetailsScan((ids) => calls.push(ids))), stream.replace(/"tool_calls":\[[^\]]*\]/g, '"content":""'), [50]);
    feed(new StreamTap('chat', reasoningDetailsScan((ids) => calls.push(ids))), stream.replace(/"reasoning_details":\[[^\]]*\]/g, '"reasoning":""'), [50]);
    expect(calls).toEqual([]);
  });

  it('reads the last Responses sequence number and whether the bytes end at an event boundary', () => {
    const tap = new StreamTap('responses');
    tap.push(Buffer.from(responsesStream.slice(0, responsesStream.indexOf('event: response.completed'))));
    expect(tap.lastSequenceNumber()).toBe(1);
    expect(tap.endsAtEventBoundary()).toBe(true);
    tap.push(Buffer.from('event: response.completed\ndata: {"ty'));
    expect(tap.endsAtEventBoundary()).toBe(false);
    // the latest chunk holds no number: the one before it says it
    expect(tap.lastSequenceNumber()).toBe(1);
  });

  it('reads the last sequence number whole, at every cut of the stream (a number cut across chunks included)', () => {
    const upTo = responsesStream.indexOf('event: response.completed');
    const text = responsesStream.slice(0, upTo) + 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":12,"delta":"y"}\n\n';
    const buf = Buffer.from(text);
    for (let k = 1; k < buf.length; k++) {
      const tap = new StreamTap('responses');
      tap.push(buf.subarray(0, k));
      tap.push(buf.subarray(k));
      expect(tap.lastSequenceNumber(), `cut ${k}`).toBe(12);
    }
    // a stream that stopped inside a number: the last whole one counts
    const cut = text.slice(0, text.indexOf('":12') + 3);
    for (let k = 1; k < cut.length; k++) {
      const tap = new StreamTap('responses');
      tap.push(Buffer.from(cut.slice(0, k)));
      tap.push(Buffer.from(cut.slice(k)));
      expect(tap.lastSequenceNumber(), `cut ${k}`).toBe(1);
    }
  });

  it('keeps the response a Responses stream announced (response.created), for a final response.failed', () => {
    const tap = new StreamTap('responses');
    feed(tap, responsesStream, [30, 200]);
    expect(tap.announced).toMatchObject({ id: 'r', status: 'in_progress' });
    const chat = new StreamTap('chat');
    feed(chat, 'data: {"id":"c","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}\n\n', []);
    expect(chat.announced).toBeUndefined();
  });
});

describe('opening error', () => {
  it('recognises a stream that opens with an error event, once that event is complete', () => {
    const err = new StreamTap('messages');
    err.push(Buffer.from('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'));
    expect(err.opening).toMatchObject({ message: 'Overloaded', impliedStatus: 529 });
    const ok = new StreamTap('messages');
    ok.push(Buffer.from('event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3}}}\n\n'));
    expect(ok.opening).toBeUndefined();
    expect(ok.usage?.input).toBe(3);
    // a Chat stream's named error event, its data wrapped or the error object itself
    for (const json of ['{"error":{"message":"busy","code":503}}', '{"message":"busy","code":503}']) {
      for (const named of ['event: error\n', 'event:error\r\n']) {
        const chat = new StreamTap('chat');
        feed(chat, `: keep-alive\n\n${named}data: ${json}\n\n`, [15]);
        expect(chat.opening, named + json).toMatchObject({ message: 'busy', impliedStatus: 503 });
      }
    }
    // the same data under another event name is no error
    const other = new StreamTap('chat');
    other.push(Buffer.from('event: message\ndata: {"message":"busy","code":503}\n\n'));
    expect(other.opening).toBeUndefined();
    const partial = new StreamTap('chat');
    partial.push(Buffer.from('data: {"error":{"message":"x","type":"server_error"}}'));
    expect(partial.opening).toBeUndefined(); // incomplete line: not judged yet
  });
});

