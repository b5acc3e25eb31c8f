import { describe, expect, it } from 'vitest';
import { FilterError } from '../../src/log/filter.js';
import { logQueryToParams, parseLogQuery, parseStatsBy } from '../../src/log/query-params.js';
import { SinceError } from '../../src/log/since.js';

const now = Date.parse('2025-06-01T12:00:00Z');

describe('log query parameters', () => {
  it('parses and validates every field, ignoring blanks', () => {
    expect(parseLogQuery({ limit: '20', key: 'ci', provider: 'openai', status: '5xx,429', base: 'coding', since: '10m', until: '2025-06-01T11:59:00Z' }, now)).toEqual({
      limit: 20,
      key: 'ci',
      provider: 'openai',
      status: '5xx,429',
      base: 'coding',
      since: now - 600_000,
      until: Date.parse('2025-06-01T11:59:00Z'),
    });
    expect(parseLogQuery({ key: ' ', since: 'all' }, now)).toEqual({});
    expect(() => parseLogQuery({ limit: '0' })).toThrow(FilterError);
    expect(() => parseLogQuery({ limit: 'ten' })).toThrow(/invalid limit "ten"/);
    expect(() => parseLogQuery({ status: 'bad' })).toThrow(FilterError);
    expect(() => parseLogQuery({ since: 'yesterday' })).toThrow(SinceError);
  });

  it('stats grouping', () => {
    expect(parseStatsBy(undefined)).toBe('provider');
    expect(parseStatsBy('key')).toBe('key');
    expect(() => parseStatsBy('day')).toThrow(/use provider, model, key/);
  });

  it('round-trips through URL parameters with absolute times', () => {
    const q = parseLogQuery({ limit: '5', status: '4xx', since: '1h', key: 'a b' }, now);
    const sp = logQueryToParams({ ...q, by: 'model' });
    expect(sp.get('since')).toBe('2025-06-01T11:00:00.000Z');
    expect(sp.get('by')).toBe('model');
    const back = parseLogQuery(Object.fromEntries(sp), now + 5000);
    expect(back).toEqual(q);
  });
});
