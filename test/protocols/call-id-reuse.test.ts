/**
 * Fresh hub ids for a call id used again (Kimi numbers its calls per turn: `list_dir:0`): the same
 * ids for the same history every time, never one taken, and work that grows with the calls, not
 * with their square (a long session repeats one id hundreds of times in a 300 KB request).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallIdReuse } from '../../src/protocols/call-id-reuse.js';

afterEach(() => vi.restoreAllMocks());

describe('CallIdReuse', () => {
  it('keeps a first use, numbers the repeats from _2 and steps over an id a model gave itself', () => {
    const ids = new CallIdReuse();
    expect(['a', 'a', 'a_3', 'a', 'a', 'b'].map((id) => ids.idFor(id))).toEqual(['a', 'a_2', 'a_3', 'a_4', 'a_5', 'b']);
  });

  it('an answer’s calls step over the ids its conversation has', () => {
    const history = new Set(['a', 'a_2']);
    const ids = new CallIdReuse((id) => history.has(id));
    expect([ids.idFor('a'), ids.idFor('a'), ids.idFor('c')]).toEqual(['a_3', 'a_4', 'c']);
  });

  it('tries each candidate id once over a session that repeats one id', () => {
    const n = 300;
    const has = vi.spyOn(Set.prototype, 'has');
    const ids = new CallIdReuse();
    const given = Array.from({ length: n }, () => ids.idFor('list_dir:0'));
    const lookups = has.mock.calls.length;
    has.mockRestore();
    expect(new Set(given).size).toBe(n);
    expect(given[n - 1]).toBe(`list_dir:0_${n}`);
    // one lookup per id given and per candidate tried; trying _2 … afresh each time is n²/2
    expect(lookups).toBeLessThan(3 * n);
  });

  it('an answer’s call after a conversation that repeated its id hundreds of times asks the conversation once per candidate', () => {
    const n = 300;
    const history = new Set(['list_dir:0', ...Array.from({ length: n - 1 }, (_, i) => `list_dir:0_${i + 2}`)]);
    let asked = 0;
    const ids = new CallIdReuse((id) => (asked++, history.has(id)));
    expect([ids.idFor('list_dir:0'), ids.idFor('list_dir:0')]).toEqual([`list_dir:0_${n + 1}`, `list_dir:0_${n + 2}`]);
    expect(asked).toBeLessThan(n + 5);
  });
});
