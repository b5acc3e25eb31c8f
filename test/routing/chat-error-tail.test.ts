/** Finding the upstream error event a passthrough Chat tick ends with (chat-error-tail.ts). */
import { describe, expect, it } from 'vitest';
import { readChatError, trailingChatError } from '../../src/routing/chat-error-tail.js';
import { chunk, data, ERRORS, opening } from '../fixtures/chat-error-events.js';

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
