import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EarlyStream, endEarlyStream, isOpenedEarly, takeOverEarlyStream } from '../../src/routing/early-stream.js';

/** The parts of a ServerResponse the early stream touches, recording what was written. */
function fakeResponse() {
  const res = {
    headersSent: false,
    destroyed: false,
    writableEnded: false,
    status: 0,
    written: [] as string[],
    writeHead(status: number) {
      res.status = status;
      res.headersSent = true;
      return res;
    },
    write(chunk: string) {
      res.written.push(chunk);
      return true;
    },
    end(chunk?: string) {
      if (chunk) res.written.push(chunk);
      res.writableEnded = true;
      return res;
    },
  };
  return res;
}
const asResponse = (r: ReturnType<typeof fakeResponse>) => r as unknown as ServerResponse;

describe('EarlyStream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens after the limit with a comment, then one every 15 s, until stopped', () => {
    const res = fakeResponse();
    const early = new EarlyStream(asResponse(res), 'chat', 30_000);
    vi.advanceTimersByTime(29_999);
    expect(res.headersSent).toBe(false);
    vi.advanceTimersByTime(1);
    expect(res.status).toBe(200);
    expect(res.written).toEqual([': waiting for the model\n\n']);
    expect(isOpenedEarly(asResponse(res))).toBe(true);
    vi.advanceTimersByTime(45_000);
    expect(res.written).toEqual([': waiting for the model\n\n', ':\n\n', ':\n\n', ':\n\n']);
    early.stop();
    vi.advanceTimersByTime(60_000);
    expect(res.written).toHaveLength(4);
  });

  it('does nothing once the answer has started or the request is over', () => {
    const answered = fakeResponse();
    answered.headersSent = true;
    new EarlyStream(asResponse(answered), 'chat', 1000);
    vi.advanceTimersByTime(2000);
    expect(answered.written).toEqual([]);
    expect(isOpenedEarly(asResponse(answered))).toBe(false);

    const done = fakeResponse();
    new EarlyStream(asResponse(done), 'chat', 1000).stop();
    vi.advanceTimersByTime(2000);
    expect(done.headersSent).toBe(false);
  });

  it('a relay takes the stream over (no more comments); a failure ends it with the dialect’s error event', () => {
    const relayed = fakeResponse();
    new EarlyStream(asResponse(relayed), 'chat', 10);
    vi.advanceTimersByTime(10);
    expect(takeOverEarlyStream(asResponse(relayed))).toBe(true);
    expect(takeOverEarlyStream(asResponse(relayed)), 'once').toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(relayed.written).toHaveLength(1);
    expect(takeOverEarlyStream(asResponse(fakeResponse())), 'never opened').toBe(false);
    // a first event before the limit: the pending headers are called off
    const quick = fakeResponse();
    new EarlyStream(asResponse(quick), 'chat', 1000);
    expect(takeOverEarlyStream(asResponse(quick))).toBe(false);
    vi.advanceTimersByTime(2000);
    expect(quick.headersSent).toBe(false);

    const failed = fakeResponse();
    new EarlyStream(asResponse(failed), 'messages', 10);
    vi.advanceTimersByTime(10);
    endEarlyStream(asResponse(failed), { status: 502, code: 'upstream_error', message: 'the model crashed' });
    expect(failed.writableEnded).toBe(true);
    expect(failed.written.at(-1)).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"the model crashed","code":"upstream_error"\}\}/);
    expect(isOpenedEarly(asResponse(failed))).toBe(false);
  });
});
