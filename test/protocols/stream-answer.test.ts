import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../src/protocols/chat/index.js';
import type { HubEvent, HubResponse, OutputItem } from '../../src/protocols/hub.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responseEvents } from '../../src/protocols/response-events.js';
import { AnswerAssembler, answerFromEventStream } from '../../src/protocols/stream-answer.js';
import { ANSWER_OF_EVERY_KIND } from '../fixtures/hub-answers.js';

function fold(events: HubEvent[], fallbackModel = 'asked'): ReturnType<AnswerAssembler['result']> {
  const a = new AnswerAssembler();
  for (const ev of events) if (!a.push(ev)) break;
  return a.result(fallbackModel);
}

const chatSse = [
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Plan ' }, finish_reason: null }] },
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { reasoning_content: 'it.' }, finish_reason: null }] },
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'Héllo 🌍 ' }, finish_reason: null }] },
  {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'a', arguments: '{"x"' } }, { index: 1, id: 'call_b', type: 'function', function: { name: 'b', arguments: '{' } }] }, finish_reason: null }],
  },
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '}' } }, { index: 0, function: { arguments: ':1}' } }] }, finish_reason: null }] },
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 } },
]
  .map((d) => `data: ${JSON.stringify(d)}\n\n`)
  .join('')
  .concat('data: [DONE]\n\n');

describe('AnswerAssembler', () => {
  // media in an answer has no stream event in any dialect: all else comes back
  const sample: HubResponse = {
    ...ANSWER_OF_EVERY_KIND,
    output: ANSWER_OF_EVERY_KIND.output.map((item) => (item.type === 'message' ? { ...item, content: item.content.filter((part) => part.type !== 'image') } : item)),
  };

  it('folds the events of a whole answer back into that answer', () => {
    expect(fold(responseEvents(sample))).toEqual(sample);
  });

  it('round-trips any answer made of text, refusals, reasoning and calls (property)', () => {
    const text = fc.string({ maxLength: 12 });
    const item: fc.Arbitrary<OutputItem> = fc.oneof(
      fc.record({ type: fc.constant('reasoning' as const), text: text.filter((t) => t !== ''), origin: fc.constant({ kind: 'unsigned' as const }) }),
      fc.record({
        type: fc.constant('message' as const),
        role: fc.constant('assistant' as const),
        content: fc.array(fc.oneof(fc.record({ type: fc.constant('text' as const), text: text.filter((t) => t !== '') }), fc.record({ type: fc.constant('refusal' as const), text })), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ type: fc.constant('function_call' as const), callId: fc.string({ minLength: 1, maxLength: 6 }), name: fc.string({ minLength: 1, maxLength: 6 }), arguments: text }),
    );
    // consecutive messages are one message once streamed (a stream has no boundary between them)
    const output = fc.array(item, { maxLength: 6 }).filter((items) => items.every((it, i) => !(it.type === 'message' && items[i - 1]?.type === 'message')));
    fc.assert(
      fc.property(output, fc.constantFrom('end_turn' as const, 'tool_use' as const, 'max_tokens' as const), (items, stopReason) => {
        const res: HubResponse = { id: 'r', model: 'm', output: items, stopReason, usage: { inputTokens: 3, outputTokens: 4 } };
        expect(fold(responseEvents(res))).toEqual(res);
      }),
    );
  });

  it('keeps interleaved blocks in order of first appearance, merges usage field by field, and stops at finish', () => {
    const got = fold([
      { type: 'start', model: 'real-model', usage: { inputTokens: 5 } },
      { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'a', name: 'fa' } },
      { type: 'block_start', index: 1, block: { type: 'function_call', callId: 'b', name: 'fb' } },
      { type: 'arguments_delta', index: 1, json: '{"b":' },
      { type: 'arguments_delta', index: 0, json: '{"a":1}' },
      { type: 'arguments_delta', index: 1, json: '2}' },
      { type: 'usage', usage: { outputTokens: 3 } },
      { type: 'finish', stopReason: 'tool_use', usage: { outputTokens: 8 } },
      { type: 'block_start', index: 2, block: { type: 'text' } },
    ]);
    expect(got).toEqual({
      id: '',
      model: 'real-model',
      output: [
        { type: 'function_call', callId: 'a', name: 'fa', arguments: '{"a":1}' },
        { type: 'function_call', callId: 'b', name: 'fb', arguments: '{"b":2}' },
      ],
      stopReason: 'tool_use',
      usage: { inputTokens: 5, outputTokens: 8 },
    });
  });

  it('gives the error a stream ended with, and says so when it ended before finishing', () => {
    const error = { status: 429, code: 'upstream_rate_limited', message: 'slow down' };
    expect(fold([{ type: 'start' }, { type: 'error', error }])).toEqual({ error });
    expect(fold([{ type: 'start' }, { type: 'block_start', index: 0, block: { type: 'text' } }])).toMatchObject({ error: { status: 502, code: 'upstream_invalid_response' } });
  });
});

describe('answerFromEventStream', () => {
  const expected = {
    model: 'm',
    output: [
      { type: 'reasoning', text: 'Plan it.' },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Héllo 🌍 ' }] },
      { type: 'function_call', callId: 'call_a', name: 'a', arguments: '{"x":1}' },
      { type: 'function_call', callId: 'call_b', name: 'b', arguments: '{}' },
    ],
    stopReason: 'tool_use',
    usage: { inputTokens: 9, outputTokens: 7 },
  };

  it('reads a Chat stream, parallel calls and all, into the answer it carried', () => {
    expect(answerFromEventStream(Buffer.from(chatSse), chatCodec.createStreamDecoder(), 'asked')).toMatchObject(expected);
  });

  it('gives the same answer when the bytes end without the last blank line', () => {
    const body = Buffer.from(chatSse.replace(/\n\n$/, ''));
    expect(answerFromEventStream(body, chatCodec.createStreamDecoder(), 'asked')).toMatchObject(expected);
  });

  it('reads a Messages stream with its thinking signature; a stream cut short is an error, not an answer', () => {
    const events: [string, unknown][] = [
      ['message_start', { type: 'message_start', message: { id: 'msg_9', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } }],
      ['message_stop', { type: 'message_stop' }],
    ];
    const sse = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    const whole = answerFromEventStream(Buffer.from(sse.join('')), messagesCodec.createStreamDecoder(), 'asked');
    expect(whole).toMatchObject({
      id: 'msg_9',
      model: 'claude-x',
      output: [
        { type: 'reasoning', text: 'Hmm.', origin: { kind: 'anthropic', signature: 'SIG' } },
        { type: 'message', content: [{ type: 'text', text: 'Hi.' }] },
      ],
      stopReason: 'end_turn',
      usage: { inputTokens: 12, outputTokens: 6 },
    });
    const cut = answerFromEventStream(Buffer.from(sse.slice(0, 7).join('')), messagesCodec.createStreamDecoder(), 'asked');
    expect(cut).toHaveProperty('error');
    // a tap sees each raw event the decoder is given, in order (a paused turn's blocks are rebuilt from them)
    const tapped: string[] = [];
    answerFromEventStream(Buffer.from(sse.join('')), messagesCodec.createStreamDecoder(), 'asked', {}, (ev) => tapped.push(ev.event ?? ''));
    expect(tapped).toEqual(events.map(([name]) => name));
  });
});
