/**
 * A converted Response object states the request's parameters again, as OpenAI's does: whole and
 * in every streamed response object. What the request left out keeps OpenAI's defaults.
 */
import type { Response } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { HubEvent, HubResponse } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { requestEcho } from '../../../src/protocols/responses/request-echo.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';

const tools = [
  { type: 'function', name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: false },
  { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
];

/** What the response states again exactly as sent. */
const echoed = {
  instructions: 'Answer briefly.',
  tools,
  tool_choice: { type: 'function', name: 'read_file' },
  parallel_tool_calls: false,
  temperature: 0.3,
  top_p: 0.9,
  max_output_tokens: 512,
  metadata: { ticket: 'T-1' },
  reasoning: { effort: 'high', summary: 'auto' },
  truncation: 'auto',
  prompt_cache_key: 'session-1',
  safety_identifier: 'user-7',
  user: 'legacy-user',
  top_logprobs: 2,
};
const format = { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true };

const request = { model: 'anthropic/claude-sonnet-4-5', input: 'hi', stream: false, store: false, ...echoed, text: { format } };
// text states its verbosity too, as OpenAI does
const expected = { ...echoed, text: { format, verbosity: 'medium' } };

const defaults = {
  instructions: null,
  tools: [],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  metadata: {},
  reasoning: { effort: null, summary: null },
  text: { format: { type: 'text' } },
  truncation: 'disabled',
};

const answer: HubResponse = {
  id: 'u1',
  model: 'm',
  output: [{ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'ok' }] }],
  stopReason: 'end_turn',
  usage: { inputTokens: 3, outputTokens: 1 },
};

function streamed(echo: ReturnType<typeof requestEcho>): Response[] {
  const enc = responsesCodec.createStreamEncoder({ model: 'p/m', created: 1, idSuffix: 'S', echo });
  const events: HubEvent[] = [
    { type: 'start', id: 'u1', model: 'm' },
    { type: 'block_start', index: 0, block: { type: 'text' } },
    { type: 'text_delta', index: 0, text: 'ok' },
    { type: 'block_stop', index: 0 },
    { type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 1 } },
  ];
  const parsed: SseEvent[] = [];
  const parser = new SseParser((ev) => parsed.push(ev));
  parser.push(Buffer.from(events.map((e) => enc.encode(e)).join('')));
  parser.end();
  return parsed.map((ev) => JSON.parse(ev.data) as { response?: Response }).flatMap((w) => (w.response ? [w.response] : []));
}

describe('the request echoed in a converted Response object', () => {
  it('takes every echoed parameter as the client sent it, and states text.verbosity as OpenAI does', () => {
    expect(requestEcho(request)).toEqual(expected);
  });

  it('leaves out what is absent, null or of another type', () => {
    expect(requestEcho({ model: 'm', input: 'x', instructions: null, temperature: '1', tools: {}, truncation: 'sometimes', metadata: [] })).toEqual({});
    expect(requestEcho({ reasoning: { effort: 'low' }, text: { verbosity: 'low' } })).toEqual({
      reasoning: { effort: 'low', summary: null },
      text: { format: { type: 'text' }, verbosity: 'low' },
    });
  });

  it('a whole answer states them; without an echo, the defaults', () => {
    const echoed = responsesCodec.encodeResponse(answer, { model: 'p/m', created: 1, idSuffix: 'S', echo: requestEcho(request) });
    expect(echoed).toMatchObject(expected);
    const plain = responsesCodec.encodeResponse(answer, { model: 'p/m', created: 1, idSuffix: 'S' });
    expect(plain).toMatchObject(defaults);
    for (const key of ['prompt_cache_key', 'safety_identifier', 'user', 'top_logprobs']) expect(plain).not.toHaveProperty(key);
  });

  it('every response object of a stream states them (created, in_progress, completed)', () => {
    const responses = streamed(requestEcho(request));
    expect(responses.map((r) => r.status)).toEqual(['in_progress', 'in_progress', 'completed']);
    for (const r of responses) expect(r).toMatchObject(expected);
    for (const r of streamed({})) expect(r).toMatchObject(defaults);
  });
});
