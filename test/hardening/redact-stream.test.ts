/**
 * Redacting passthrough stream bytes: the common chunk passes as the same Buffer (no copy); an
 * echoed credential is masked wherever it appears, its tail only in error events; the bytes
 * around a redaction (multi-byte UTF-8 included) are kept exactly.
 */
import { describe, expect, it } from 'vitest';
import { redactStreamChunk } from '../../src/routing/redact.js';

const SECRET = 'sk-ant-api03-abcdefghijklmnopQz7Xw';
const b = (s: string) => Buffer.from(s, 'utf8');

describe('redactStreamChunk', () => {
  it('returns the very same buffer when the secret\'s tail is not there', () => {
    const chunk = b('data: {"choices":[{"delta":{"content":"héllo wörld 🎉 X w Xw"}}]}\n\n');
    expect(redactStreamChunk(chunk, SECRET)).toBe(chunk);
    expect(redactStreamChunk(chunk, undefined)).toBe(chunk);
  });

  it('masks the whole secret anywhere, and its tail in Chat, Messages and Responses error events', () => {
    const whole = redactStreamChunk(b(`data: {"choices":[{"delta":{"content":"your key ${SECRET} 🎉"}}]}\n\n`), SECRET).toString('utf8');
    expect(whole).not.toContain(SECRET);
    expect(whole).not.toContain('z7Xw');
    expect(whole).toContain('[REDACTED] 🎉');
    const events = [
      `data: {"error":{"message":"Incorrect API key provided: sk-ant-***...Qz7Xw","code":"invalid_api_key"}}\n\n`,
      `event: error\ndata: {"type":"error","error":{"type":"authentication_error","message":"key …z7Xw is invalid"}}\n\n`,
      `event: response.failed\ndata: {"type":"response.failed","response":{"error":{"code":"x","message":"key ending in 7Xw and z7Xw"}}}\n\n`,
    ];
    for (const e of events) {
      const out = redactStreamChunk(b(`data: {"ok":1}\n\n${e}`), SECRET).toString('utf8');
      expect(out, e).not.toContain('z7Xw');
      expect(out).toContain('[REDACTED]');
      expect(out.startsWith('data: {"ok":1}\n\n')).toBe(true);
    }
  });

  it('leaves model output alone that merely contains the last four characters', () => {
    const chunk = b('data: {"choices":[{"delta":{"content":"the hash is 9fQz7Xw1"}}]}\n\n');
    expect(redactStreamChunk(chunk, SECRET)).toBe(chunk);
  });

  it('a line continued from an earlier chunk is treated as possibly an error', () => {
    const out = redactStreamChunk(b('…provided: ****Qz7Xw"}}\n\n'), SECRET).toString('utf8');
    expect(out).not.toContain('z7Xw');
  });

  it('keeps every other byte exactly, also invalid UTF-8', () => {
    const before = Buffer.concat([Buffer.from([0xff, 0xfe, 0xe2, 0x82]), b(`\ndata: {"error":"${SECRET}"}\n\n`), Buffer.from([0xc3, 0xa9])]);
    const out = redactStreamChunk(before, SECRET);
    expect(out.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xfe, 0xe2, 0x82]));
    expect(out.subarray(-2)).toEqual(Buffer.from([0xc3, 0xa9]));
    expect(out.toString('latin1')).toContain('data: {"error":"[REDACTED]"}');
  });
});
