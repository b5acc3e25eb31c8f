/** Anthropic's paging of the models list (model-paging.ts), and the SDK's walk over it. */
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/protocols/errors.js';
import { modelPage } from '../../src/routing/model-paging.js';

const items = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
const page = (q: string) => {
  const p = modelPage(items, new URLSearchParams(q));
  return { ids: p.data.map((i) => i.id).join(''), first: p.first_id, last: p.last_id, more: p.has_more };
};
const refusal = (q: string) => {
  try {
    modelPage(items, new URLSearchParams(q));
  } catch (err) {
    return err as ProtocolError;
  }
  throw new Error('no refusal');
};

describe('modelPage', () => {
  it('in list order; whole without a limit (a tool that reads one page sees every model), up to 1000 a page with one', () => {
    expect(page('')).toEqual({ ids: 'abcde', first: 'a', last: 'e', more: false });
    const many = Array.from({ length: 1500 }, (_, i) => ({ id: `m${i}` }));
    const whole = modelPage(many, new URLSearchParams());
    expect(whole.data).toHaveLength(1500);
    expect(whole).toMatchObject({ has_more: false, first_id: 'm0', last_id: 'm1499' });
    expect(modelPage(many, new URLSearchParams('limit=1000'))).toMatchObject({ has_more: true, last_id: 'm999' });
    expect(modelPage(many, new URLSearchParams('after_id=m1497')).data.map((m) => m.id)).toEqual(['m1498', 'm1499']);
  });

  it('after_id: the page right after it; has_more until the end', () => {
    expect(page('limit=2')).toEqual({ ids: 'ab', first: 'a', last: 'b', more: true });
    expect(page('limit=2&after_id=b')).toEqual({ ids: 'cd', first: 'c', last: 'd', more: true });
    expect(page('limit=2&after_id=d')).toEqual({ ids: 'e', first: 'e', last: 'e', more: false });
    expect(page('limit=2&after_id=e')).toEqual({ ids: '', first: null, last: null, more: false });
  });

  it('before_id: the page right before it, in list order; has_more while models precede it', () => {
    expect(page('limit=2&before_id=e')).toEqual({ ids: 'cd', first: 'c', last: 'd', more: true });
    expect(page('limit=2&before_id=c')).toEqual({ ids: 'ab', first: 'a', last: 'b', more: false });
    expect(page('limit=2&before_id=a')).toEqual({ ids: '', first: null, last: null, more: false });
  });

  it('both cursors: the models between them, from after_id on', () => {
    expect(page('after_id=a&before_id=e')).toEqual({ ids: 'bcd', first: 'b', last: 'd', more: false });
    expect(page('limit=2&after_id=a&before_id=e')).toEqual({ ids: 'bc', first: 'b', last: 'c', more: true });
  });

  it('walking it as the SDK does (after_id = last_id while has_more) meets every model once', () => {
    for (const limit of [1, 2, 3, 5, 7]) {
      const seen: string[] = [];
      let q = `limit=${limit}`;
      for (;;) {
        const p = modelPage(items, new URLSearchParams(q));
        seen.push(...p.data.map((m) => m.id));
        if (!p.has_more || !p.last_id) break;
        q = `limit=${limit}&after_id=${p.last_id}`;
      }
      expect(seen.join(''), `limit ${limit}`).toBe('abcde');
    }
  });

  it('a bad limit or a cursor the list does not hold: 400 invalid_request naming the parameter', () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=2.5', 'limit=x', 'limit=']) {
      expect(refusal(q), q).toMatchObject({ status: 400, code: 'invalid_request', param: 'limit' });
    }
    expect(refusal('after_id=zz')).toMatchObject({ status: 400, code: 'invalid_request', param: 'after_id' });
    expect(refusal('before_id=zz')).toMatchObject({ status: 400, code: 'invalid_request', param: 'before_id' });
  });
});
