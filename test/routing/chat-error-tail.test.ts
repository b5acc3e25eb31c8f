/** Finding the upstream error event a passthrough Chat tick ends with (chat-error-tail.ts). */
import { describe, expect, it } from 'vitest';
import { isDoneEvent, readChatError, trailingChatError } from '../../src/routing/chat-error-tail.js';

const data = (json: unknown) => `data: ${typeof json === 'string' ? json : JSON.stringify(json)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  data({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });

const opening = ': OPENROUTER PROCESSING\n\n' + chunk({ role: 'assistant', content: '' }) + chunk({ content: 'partial é answer' });

/** The upstream error events this must find (as each upstream writes it). */
const ERRORS: Record<string, { event: string; message: string; impliedStatus?: number }> = {
  openrouter: {
    event: data({
      id: 'gen-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'm',
      provider: 'Anthropic',
      error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'Anthropic', raw: 'upstream disconnected' } },
      choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error', native_finish_reason: 'error' }],
    }),
    message: 'Provider returned error (Anthropic): upstream disconnected',
    impliedStatus: 502,
  },
  'openrouter (its documented shape)': {
    event: data({ id: 'cmpl-abc123', object: 'chat.completion.chunk', created: 1, model: 'gpt-3.5-turbo', provider: 'openai', error: { code: 'server_error', message: 'Provider disconnected unexpectedly' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] }),
    message: 'Provider disconnected unexpectedly',
    impliedStatus: 500,
  },
  gemini: { event: data({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }), message: 'An internal error has occurred.', impliedStatus: 500 },
  'a custom endpoint': {
    event: data({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }),
    message: 'The server had an error while processing your request.',
    impliedStatus: 500,
  },
  'a local server (python separators, no space after data:)': { event: 'data:{"error": {"message": "out of memory", "code": 503}}\n\n', message: 'out of memory', impliedStatus: 503 },
  'a loose one': { event: data({ error: 'boom' }), message: 'boom' },
  // llama-server (2025 builds) writes its error as an `error:` field, not `data:`
  'llama.cpp (an error: field)': {
    event: `error: ${JSON.stringify({ code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' })}\n\n`,
    message: 'the request exceeds the available context size, try increasing it',
    impliedStatus: 400,
  },
  'llama.cpp (no space after error:)': { event: 'error:{"code":500,"message":"Context size has been exceeded.","type":"server_error"}\n\n', message: 'Context size has been exceeded.', impliedStatus: 500 },
  // vLLM/SGLang variants and gateways name the event: `event: error`, then the data
  'a named error event (event: error, {"error":…})': {
    event: `event: error\n${data({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } })}`,
    message: 'the request exceeds the available context size, try increasing it',
    impliedStatus: 400,
  },
  'a named error event (the error object itself as its data)': { event: `event: error\n${data({ message: 'loading model', type: 'unavailable_error', code: 503 })}`, message: 'loading model', impliedStatus: 503 },
  'a named error event (no spaces after the colons)': { event: 'event:error\ndata:{"object":"error","message":"Internal server error","type":"InternalServerError","code":500}\n\n', message: 'Internal server error', impliedStatus: 500 },
  'finish_reason "error" alone': { event: data({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'error' }] }), message: 'the upstream ended the answer with finish_reason "error"' },
};

describe('trailingChatError', () => {
  for (const [name, e] of Object.entries(ERRORS)) {
    for (const done of ['', 'data: [DONE]\n\n']) {
      it(`${name}${done ? ', [DONE] after it' : ''}: found whenever the tick's bytes hold it whole, at every cut`, () => {
        const stream = Buffer.from(opening + e.event + done);
        const at = Buffer.byteLength(opening);
        const errorEnd = at + Buffer.byteLength(e.event);
        for (let k = 0; k < stream.length; k++) {
          // the earlier tick ends at k, the last one holds the rest
          const earlier = stream.subarray(0, k);
          const last = stream.subarray(k);
          const found = trailingChatError(last, k === 0 ? undefined : earlier);
          if (k <= at) {
            expect(found?.at, `cut ${k}`).toBe(at - k);
            expect(found?.error.message, `cut ${k}`).toBe(e.message);
            expect(found?.error.impliedStatus, `cut ${k}`).toBe(e.impliedStatus);
          } else {
            // the error event began in the earlier tick: it went out already
            expect(found, `cut ${k}`).toBeUndefined();
          }
          // the earlier tick ends with the error event whole only when cut right after it
          const early = k === 0 ? undefined : trailingChatError(earlier, undefined);
          if (k === errorEnd) expect(early?.at, `cut ${k}`).toBe(at);
          else expect(early, `cut ${k}`).toBeUndefined();
        }
      });
    }
  }

  it('a last event that begins a piece counts only when what went before ended at an event boundary', () => {
    const e = Buffer.from(ERRORS.gemini!.event);
    expect(trailingChatError(e, undefined)?.at).toBe(0);
    expect(trailingChatError(e, Buffer.from('data: {}\n\n'))?.at).toBe(0);
    expect(trailingChatError(e, 'data: {}\n\n')?.at).toBe(0);
    expect(trailingChatError(e, Buffer.from('data: {"x":"'))).toBeUndefined();
    expect(trailingChatError(e, Buffer.from('data: {}\n'))).toBeUndefined();
  });

  it('ordinary streams, however cut, hold no error: content that says "error", finish reasons, usage, comments', () => {
    const stream = Buffer.from(
      opening +
        chunk({ content: 'error' }) +
        chunk({ content: '{"error":"not really"}' }) +
        chunk({ content: 'x' }, 'stop') +
        data({ id: 'gen-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } }) +
        data({ choices: [{ index: 0, delta: { content: 'ends with error' }, finish_reason: null, tag: 'error' }] }) +
        ': keep-alive\n\n' +
        'data: [DONE]\n\n',
    );
    for (let k = 0; k < stream.length; k++) {
      const earlier = stream.subarray(0, k);
      expect(trailingChatError(stream.subarray(k), k === 0 ? undefined : earlier), `cut ${k}`).toBeUndefined();
      if (k > 0) expect(trailingChatError(earlier, undefined), `cut ${k}`).toBeUndefined();
    }
  });

  it('an error event followed by more than [DONE] is not the last event: not found (it goes out as it came)', () => {
    expect(trailingChatError(Buffer.from(ERRORS.gemini!.event + chunk({ content: 'x' })), undefined)).toBeUndefined();
    expect(trailingChatError(Buffer.from(ERRORS.gemini!.event + 'data: [DONE]\n\ndata: [DONE]\n\n'), undefined)).toBeUndefined();
  });

  it('what is not looked at: an error key after others whose choices do not end with "error" (documented)', () => {
    // only the end of a choice delta is compared; logprobs after the finish reason hide it
    expect(trailingChatError(Buffer.from(chunk({}, 'error')), undefined)).toBeUndefined();
  });
});

describe('isDoneEvent', () => {
  it('a piece that is a `data: [DONE]` event and nothing else', () => {
    for (const yes of ['data: [DONE]\n\n', 'data:[DONE]\n\n']) expect(isDoneEvent(Buffer.from(yes)), yes).toBe(true);
    for (const no of ['data: [DONE]\n', 'data  [DONE]\n\n', 'data: [DONX]\n\n', 'data: {"a":1}\n\n', 'x\n\ndata: [DONE]\n\n', 'datax[DONE]\n\n']) expect(isDoneEvent(Buffer.from(no)), no).toBe(false);
  });
});

describe('readChatError', () => {
  it('reads an error member or a choice finished with "error"; anything else is none', () => {
    expect(readChatError('{"error":{"code":429,"message":"slow"}}')).toMatchObject({ message: 'slow', impliedStatus: 429 });
    expect(readChatError('{"choices":[{"finish_reason":"error"}]}')).toMatchObject({ kind: '' });
    expect(readChatError('{"choices":[{"finish_reason":"stop"}]}')).toBeUndefined();
    expect(readChatError('{"error":null,"choices":[]}')).toBeUndefined();
    expect(readChatError('[{"error":{}}]')).toBeUndefined();
    expect(readChatError('{"error":')).toBeUndefined();
  });
});
