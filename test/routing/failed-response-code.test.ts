/**
 * The failed response a passthrough Responses stream ends with gets the converted path's code
 * where Codex would give up on OpenAI's; anything else in the bytes stays as it came.
 */
import { describe, expect, it, vi } from 'vitest';
import { recodeFailedResponse } from '../../src/routing/failed-response-code.js';

const failed = (code: string) => `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', sequence_number: 9, response: { id: 'resp_1', status: 'failed', error: { code, message: 'Our servers are currently overloaded. Please try again later.' } } })}\n\n`;
const delta = 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"hi","sequence_number":8}\n\n';

/** One tick's write as the relay hands it over: the piece recoded, or undefined when it went out as it came. */
function recodedPiece(piece: Buffer): Buffer | undefined {
  const pending: (string | Buffer)[] = [piece];
  recodeFailedResponse(pending);
  expect(pending).toHaveLength(1);
  return pending[0] === piece ? undefined : (pending[0] as Buffer);
}

describe('recodeFailedResponse on one piece', () => {
  it('replaces an overload code in the last event, keeping the events before it byte for byte', () => {
    const out = recodedPiece(Buffer.from(delta + failed('server_is_overloaded')))!.toString();
    expect(out.startsWith(delta)).toBe(true);
    expect(out.slice(delta.length)).toBe(failed('upstream_overloaded'));
  });

  it('leaves a failed response Codex reads rightly, another last event, and an event not yet whole', () => {
    expect(recodedPiece(Buffer.from(failed('rate_limit_exceeded')))).toBeUndefined();
    expect(recodedPiece(Buffer.from(failed('server_is_overloaded') + delta))).toBeUndefined();
    expect(recodedPiece(Buffer.from(failed('server_is_overloaded').slice(0, -1)))).toBeUndefined();
  });

  it('reads a data line without the space after its colon', () => {
    const tight = failed('slow_down').replace('data: ', 'data:');
    expect(JSON.parse(recodedPiece(Buffer.from(tight))!.toString().split('\n')[1]!.slice(6))).toMatchObject({ response: { error: { code: 'rate_limit_exceeded' } } });
  });

  it('recodes OpenAI’s error event as its failed response, nested or flat, in the same piece or the one before', () => {
    const nested = (code: string) => `event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: 8, error: { type: 'service_unavailable_error', code, message: 'overloaded', param: null } })}\n\n`;
    const flat = (code: string) => `event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: 8, code, message: 'overloaded', param: null })}\n\n`;
    for (const error of [nested, flat]) {
      expect(recodedPiece(Buffer.from(delta + error('server_is_overloaded') + failed('server_is_overloaded')))!.toString()).toBe(delta + error('upstream_overloaded') + failed('upstream_overloaded'));
      expect(recodedPiece(Buffer.from(error('slow_down')))!.toString()).toBe(error('rate_limit_exceeded'));
      const pending: (string | Buffer)[] = [Buffer.from(delta + error('server_is_overloaded')), Buffer.from(failed('server_is_overloaded'))];
      recodeFailedResponse(pending);
      expect(Buffer.concat(pending as Buffer[]).toString()).toBe(delta + error('upstream_overloaded') + failed('upstream_overloaded'));
    }
    // an error event that is not the one before the failed response is left alone
    expect(recodedPiece(Buffer.from(nested('server_is_overloaded') + delta + failed('server_is_overloaded')))!.toString()).toBe(nested('server_is_overloaded') + delta + failed('upstream_overloaded'));
  });

  it('does not decode a completed response, whose start names its null error (every stream ends with one, and it repeats the whole answer)', () => {
    const completed = `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', sequence_number: 9, response: { id: 'resp_1', object: 'response', created_at: 1, status: 'completed', error: null, output: [{ type: 'message', content: [{ type: 'output_text', text: 'x'.repeat(100_000) }] }] } })}\n\n`;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(recodedPiece(Buffer.from(delta + completed))).toBeUndefined();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});
