/** Where an aborted passthrough Chat stream's last bytes are cut (chat-abort-tail.ts). */
import { describe, expect, it } from 'vitest';
import { abortedTailStart } from '../../src/routing/chat-abort-tail.js';

const chunk = (finish: string | null, spaced = false): string => {
  const event = { id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: finish ? {} : { content: 'The answer is' }, finish_reason: finish }] };
  // Python's json.dumps writes ", " and ": "
  const json = spaced ? JSON.stringify(event).replaceAll('":', '": ').replaceAll(',"', ', "') : JSON.stringify(event);
  return `data: ${json}\n\n`;
};
const usage = 'data: {"id":"c1","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3}}\n\n';
const done = 'data: [DONE]\n\n';
const cutAt = (s: string): string => s.slice(0, abortedTailStart(Buffer.from(s)));

describe('abortedTailStart', () => {
  for (const spaced of [false, true]) {
    const aborted = chunk('abort', spaced);
    const how = spaced ? 'written with spaces (json.dumps)' : 'written compact (vLLM, SGLang)';
    it(`${how}: the text before the aborted chunk is kept, the chunk and what follows dropped`, () => {
      expect(cutAt(chunk(null, spaced) + aborted + usage + done)).toBe(chunk(null, spaced));
      expect(cutAt(chunk(null, spaced) + aborted)).toBe(chunk(null, spaced));
    });
    it(`${how}: the aborted chunk first in the bytes (the text came in earlier reads): all dropped`, () => {
      expect(cutAt(aborted + usage + done)).toBe('');
      expect(cutAt(aborted)).toBe('');
      // the blank line before it completed by this read
      expect(cutAt(`\n${aborted}${done}`)).toBe('\n');
    });
  }

  it('a stream framed with CRLF line ends: the aborted chunk is dropped too, also first in the bytes', () => {
    const crlf = (s: string): string => s.replaceAll('\n', '\r\n');
    const [text, aborted] = [crlf(chunk(null)), crlf(chunk('abort'))];
    expect(cutAt(text + aborted + crlf(usage + done))).toBe(text);
    expect(cutAt(text + aborted)).toBe(text);
    expect(cutAt(aborted + crlf(done))).toBe('');
    // the blank line before it completed by this read: its CRLF, or the LF of it
    expect(cutAt(`\r\n${aborted}`)).toBe('\r\n');
    expect(cutAt(`\n${aborted}`)).toBe('\n');
  });

  it('the aborted chunk went out in an earlier read: only the [DONE] is dropped', () => {
    expect(cutAt(usage + done)).toBe(usage);
    expect(cutAt(done)).toBe('');
  });

  it('"abort" as text, or under another key, is not the finish reason', () => {
    const text = 'data: {"choices":[{"delta":{"content":"say \\"finish_reason\\":\\"abort\\""},"finish_reason":null}]}\n\n';
    expect(cutAt(text + done)).toBe(text);
    const other = 'data: {"choices":[],"reason":"abort"}\n\n';
    expect(cutAt(other + done)).toBe(other);
  });

  it('the rest of an event begun in an earlier read is not taken for a chunk start', () => {
    const rest = '"finish_reason":"abort"}]}\n\n';
    expect(cutAt(rest + done)).toBe(rest);
  });
});
