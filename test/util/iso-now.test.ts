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

  it("gives each request's log record the time it arrived, never an earlier request's nor the time it finished", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const route = { endpoint: 'chat', protocol: 'a' } as const;
    const caller = { keyId: 'k_1', keyName: 'test' };
    const finished = (r: RequestRecord): string => {
      let logged = '';
      r.finish((e) => (logged = e.time), 200);
      return logged;
    };
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    const first = new RequestRecord(route, caller, 0);
    const second = new RequestRecord(route, caller, 0);
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 5, 7));
    const third = new RequestRecord(route, caller, 0);
    vi.setSystemTime(Date.UTC(2026, 0, 2, 3, 4, 9, 0));
    expect(finished(third)).toBe('2026-01-02T03:04:05.007Z');
    expect(finished(first)).toBe('2026-01-02T03:04:05.006Z');
    expect(finished(second)).toBe('2026-01-02T03:04:05.006Z');
  });

  it('makes no ISO string while the request is under way: only when its record is finished', () => {
    const toISOString = vi.spyOn(Date.prototype, 'toISOString');
    try {
      const record = new RequestRecord({ endpoint: 'chat', protocol: 'a' }, { keyId: 'k_1', keyName: 'test' }, 0);
      record.firstByte();
      expect(toISOString).not.toHaveBeenCalled();
      let time = '';
      record.finish((e) => (time = e.time), 200);
      expect(Number.isNaN(Date.parse(time))).toBe(false);
    } finally {
      toISOString.mockRestore();
    }
  });
});
