/**
 * The passthrough stream's redactor masks a credential's tail only in lines that may be errors.
 * Every Responses event carries `"error":null`: a `response.completed` whose `created_at` held the
 * key's last four digits (1796000213 for a key ending in 0002) reached the client as invalid JSON.
 */
import { describe, expect, it } from 'vitest';
import { streamRedactor } from '../../src/routing/redact.js';

const KEY = 'sk-e2e-openai-0002';

function relay(text: string): string {
  const redactor = streamRedactor(KEY)!;
  return Buffer.concat([redactor.push(Buffer.from(text)), redactor.flush()]).toString();
}

describe('passthrough stream redactor: what counts as an error line', () => {
  it('leaves an event that only says it has no error as it came', () => {
    const event = `event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_1","created_at":1796000213,"status":"completed","error":null,"output":[]}}\n\n`;
    expect(relay(event)).toBe(event);
    expect(relay(event.replace('"error":null', '"error" : null'))).toBe(event.replace('"error":null', '"error" : null'));
  });

  it('still masks the tail in an error event and in a failed response', () => {
    expect(relay(`event: error\ndata: {"type":"error","message":"bad key ...0002"}\n\n`)).toBe(`event: error\ndata: {"type":"error","message":"bad key ...[REDACTED]"}\n\n`);
    expect(relay(`data: {"type":"response.failed","response":{"error":{"message":"key ...0002 refused"}}}\n\n`)).toBe(`data: {"type":"response.failed","response":{"error":{"message":"key ...[REDACTED] refused"}}}\n\n`);
  });
});
