/** OpenAI's cursor pages over a stored response's input items (stored-responses-endpoint.ts). */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/protocols/errors.js';
import { listPage } from '../../src/routing/stored-responses-endpoint.js';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
const page = (q: string) => {
  const p = listPage(items, new URLSearchParams(q)) as { data: Array<{ id: string }>; first_id: string | null; last_id: string | null; has_more: boolean };
  return { ids: p.data.map((i) => i.id).join(''), first: p.first_id, last: p.last_id, more: p.has_more };
};
const refusal = (q: string) => {
  try {
    listPage(items, new URLSearchParams(q));
  } catch (err) {
    return err as ProtocolError;
  }
  throw new Error('no refusal');
};

describe('listPage', () => {
  it('newest first by default, 20 at most; asc on request', () => {
    expect(page('')).toEqual({ ids: 'edcba', first: 'e', last: 'a', more: false });
    expect(page('order=asc')).toEqual({ ids: 'abcde', first: 'a', last: 'e', more: false });
    expect(listPage(Array.from({ length: 30 }, (_, i) => ({ id: `i${i}` })), new URLSearchParams()).data).toHaveLength(20);
  });

  it('after a cursor, page by page, until has_more is false', () => {
    expect(page('order=asc&limit=2')).toEqual({ ids: 'ab', first: 'a', last: 'b', more: true });
    expect(page('order=asc&limit=2&after=b')).toEqual({ ids: 'cd', first: 'c', last: 'd', more: true });
    expect(page('order=asc&limit=2&after=d')).toEqual({ ids: 'e', first: 'e', last: 'e', more: false });
    expect(page('limit=2&after=d')).toEqual({ ids: 'cb', first: 'c', last: 'b', more: true });
    expect(page('order=asc&after=e')).toEqual({ ids: '', first: null, last: null, more: false });
  });

  it('before a cursor: the items nearest it; both cursors bound the page on each side', () => {
    expect(page('order=asc&limit=2&before=e')).toEqual({ ids: 'cd', first: 'c', last: 'd', more: true });
    expect(page('order=asc&limit=2&before=c')).toEqual({ ids: 'ab', first: 'a', last: 'b', more: false });
    expect(page('order=asc&after=a&before=d')).toEqual({ ids: 'bc', first: 'b', last: 'c', more: false });
    expect(page('order=asc&limit=1&after=a&before=d')).toEqual({ ids: 'b', first: 'b', last: 'b', more: true });
  });

  it('a limit outside 1–100, an unknown order or a cursor naming no item → 400 invalid_request naming the parameter', () => {
    for (const [q, param] of [['limit=0', 'limit'], ['limit=101', 'limit'], ['limit=2.5', 'limit'], ['limit=x', 'limit'], ['order=up', 'order'], ['after=zz', 'after'], ['before=zz', 'before']] as const) {
      const e = refusal(q);
      expect([e.status, e.code, e.param]).toEqual([400, 'invalid_request', param]);
    }
  });
});
