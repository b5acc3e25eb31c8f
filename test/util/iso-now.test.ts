import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestRecord } from '../../src/routing/request-log.js';
import { isoNow } from '../../src/util/iso-now.js';

describe('isoNow', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the ISO string of the millisecond it is given, made again when the millisecond changes', () => {
    const t = Date.UTC(2026, 10, 29, 20, 30, 0, 123);
    expect(isoNow(t)).toBe('2026-11-29T20:30:00.123Z');
    expect(isoNow(t)).toBe('2026-11-29T20:30:00.123Z');
    expect(isoNow(t + 1)).toBe('2026-11-29T20:30:00.124Z');
    expect(isoNow(t)).toBe('2026-11-29T20:30:00.123Z');
  });

  it("gives each request's log record the time it arrived, never an earlier request's", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const route = { endpoint: 'chat', protocol: 'a' } as const;
    const caller = { keyId: 'k_1', keyName: 'test' };
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(new RequestRecord(route, caller, 0).entry.time).toBe('2026-01-02T03:04:05.006Z');
    expect(new RequestRecord(route, caller, 0).entry.time).toBe('2026-01-02T03:04:05.006Z');
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 7));
    expect(new RequestRecord(route, caller, 0).entry.time).toBe('2026-01-02T03:04:05.007Z');
  });
});
