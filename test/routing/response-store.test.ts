/** The answers kept for previous_response_id: chains, bounds, expiry. */
import { describe, expect, it, vi } from 'vitest';
import { inputItems, ResponseStore } from '../../src/routing/response-store.js';

const user = (text: string) => ({ type: 'message', role: 'user', content: text });
/** An answer as its client got it: only its output is the conversation's. */
const answer = (...output: unknown[]) => ({ output });
const said = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
/** A request body as a client sends it: only its input is the conversation's. */
const body = (input: unknown) => Buffer.from(JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', instructions: 'Be terse.', tools: [], input }));

describe('ResponseStore', () => {
  it('a chain is its links’ input and output items, oldest first (a string input is one user message)', () => {
    const store = new ResponseStore();
    store.put('', 'resp_1', undefined, body('a'), answer(said('A')));
    store.put('', 'resp_2', 'resp_1', body([user('b')]), answer(said('B')));
    store.put('', 'resp_3', 'resp_2', body([user('c')]), answer(said('C')));
    expect(store.conversation('', 'resp_3')).toEqual([user('a'), said('A'), user('b'), said('B'), user('c'), said('C')]);
    expect(store.conversation('', 'resp_2')).toEqual([user('a'), said('A'), user('b'), said('B')]);
    // a branch from an earlier answer
    store.put('', 'resp_4', 'resp_1', body([user('x')]), answer(said('X')));
    expect(store.conversation('', 'resp_4')).toEqual([user('a'), said('A'), user('x'), said('X')]);
    expect(store.conversation('', 'resp_nope')).toBeUndefined();
  });

  it('keeps its own copy of the request bytes', () => {
    const store = new ResponseStore();
    const bytes = body([user('before')]);
    store.put('', 'r1', undefined, bytes, answer(said('A')));
    bytes.fill(0x20);
    expect(store.conversation('', 'r1')).toEqual([user('before'), said('A')]);
  });

  it('a chain with a link gone is no chain; a cycle is none either', () => {
    const store = new ResponseStore();
    store.put('', 'resp_2', 'resp_1', body([]), answer(said('B')));
    expect(store.conversation('', 'resp_2')).toBeUndefined();
    store.put('', 'resp_a', 'resp_b', body([]), answer(said('a')));
    store.put('', 'resp_b', 'resp_a', body([]), answer(said('b')));
    expect(store.conversation('', 'resp_a')).toBeUndefined();
  });

  it('the least recently used go first past the count or the bytes; an answer too large is not kept', () => {
    const store = new ResponseStore({ count: 3, bytes: 1000 });
    for (const id of ['r1', 'r2', 'r3']) store.put('', id, undefined, body([]), answer(said(id)));
    expect(store.conversation('', 'r1')).toBeDefined(); // r1 used: r2 is now the oldest
    store.put('', 'r4', undefined, body([]), answer(said('r4')));
    expect(store.size).toBe(3);
    expect(store.conversation('', 'r2')).toBeUndefined();
    expect(store.conversation('', 'r1')).toBeDefined();
    // ~980 bytes with its request: the bytes bound pushes the others out
    store.put('', 'big', undefined, body([]), answer(said('x'.repeat(800))));
    expect(store.conversation('', 'big')).toBeDefined();
    expect(store.size).toBe(1);
    store.put('', 'huge', undefined, body([user('x'.repeat(2000))]), answer());
    expect(store.conversation('', 'huge')).toBeUndefined();
  });

  it('an answer unused for the time-to-live is forgotten; using a chain keeps every link', () => {
    let now = 0;
    const store = new ResponseStore({ ttlMs: 1000, now: () => now });
    store.put('', 'r1', undefined, body([]), answer(said('1')));
    store.put('', 'r2', 'r1', body([]), answer(said('2')));
    now = 900;
    expect(store.conversation('', 'r2')).toHaveLength(2); // both links used at 900
    now = 1800;
    expect(store.conversation('', 'r2')).toHaveLength(2);
    now = 2900;
    expect(store.conversation('', 'r2')).toBeUndefined();
    expect(store.conversation('', 'r1')).toBeUndefined();
  });

  it('an idle store lets go of expired answers without waiting for another to be kept', () => {
    vi.useFakeTimers();
    try {
      const store = new ResponseStore({ ttlMs: 60_000 });
      store.put('', 'r1', undefined, body([user('x'.repeat(1000))]), answer(said('1')));
      vi.advanceTimersByTime(30_000);
      store.put('', 'r2', undefined, body([]), answer(said('2')));
      vi.advanceTimersByTime(32_000);
      expect(store.size).toBe(1);
      expect(store.answerJson('', 'r2')).toBeDefined(); // used at 62 s: kept another minute
      vi.advanceTimersByTime(59_000);
      expect(store.size).toBe(1);
      vi.advanceTimersByTime(2_000);
      expect(store.size).toBe(0);
      // nothing left to wait for
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an item_reference finds the item of a kept answer, in its own scope; replayed items lose our ids, reasoning keeps its', () => {
    const store = new ResponseStore({ count: 2 });
    const reasoning = { id: 'rs_x_0', type: 'reasoning', summary: [], encrypted_content: 'svc1.abc' };
    const message = { id: 'msg_x_1', ...said('A') };
    store.put('key1', 'resp_x', undefined, body('a'), answer(reasoning, message));
    expect(store.item('key1', 'msg_x_1')).toEqual(said('A'));
    expect(store.item('key1', 'rs_x_0')).toEqual(reasoning);
    expect(store.item('key2', 'msg_x_1')).toBeUndefined();
    expect(store.item('key1', 'msg_nope')).toBeUndefined();
    expect(store.conversation('key1', 'resp_x')).toEqual([user('a'), reasoning, said('A')]);
    // the answer evicted, its items go with it
    store.put('key1', 'r2', undefined, body([]), answer());
    store.put('key1', 'r3', undefined, body([]), answer());
    expect(store.item('key1', 'msg_x_1')).toBeUndefined();
  });

  it('putting an id again replaces it', () => {
    const store = new ResponseStore();
    store.put('', 'r1', undefined, body([]), answer(said('old')));
    store.put('', 'r1', undefined, body([]), answer(said('new')));
    expect(store.conversation('', 'r1')).toEqual([said('new')]);
    expect(store.size).toBe(1);
  });
});

describe('ResponseStore: reading an answer again, its input items, deleting it', () => {
  const answered = (id: string, ...output: unknown[]) => ({ id, object: 'response', status: 'completed', output });

  it('answer() is the answer as its client got it, in its own scope', () => {
    const store = new ResponseStore();
    const a = answered('resp_1', { id: 'msg_1', ...said('A') });
    store.put('k', 'resp_1', undefined, body('a'), a);
    expect(JSON.parse(store.answerJson('k', 'resp_1')!)).toEqual(a);
    expect(store.answerJson('other', 'resp_1')).toBeUndefined();
    expect(store.answerJson('k', 'resp_2')).toBeUndefined();
  });

  it('inputItems() lists the chain before the answer and its own input, each with an id that stays the same; references resolved', () => {
    const store = new ResponseStore();
    const first = { id: 'msg_a', ...said('A') };
    store.put('k', 'resp_1', undefined, body('a'), answered('resp_1', first));
    store.put('k', 'resp_2', 'resp_1', body([{ role: 'user', content: 'b' }, { type: 'item_reference', id: 'msg_a' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }]), answered('resp_2', { id: 'msg_b', ...said('B') }));
    const items = store.inputItems('k', 'resp_2')!;
    expect(items).toEqual([
      { id: 'msg_1_in0', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }], status: 'completed' },
      first,
      { id: 'msg_2_in0', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'b' }], status: 'completed' },
      { ...first, status: 'completed' },
      { id: 'fco_2_in2', type: 'function_call_output', call_id: 'c1', output: 'ok' },
    ]);
    expect(store.inputItems('k', 'resp_2')).toEqual(items);
    // its own output is not its input; another scope sees nothing
    expect(items.some((i) => i.id === 'msg_b')).toBe(false);
    expect(store.inputItems('x', 'resp_2')).toBeUndefined();
    // an assistant's text in the input is output text
    store.put('k', 'resp_3', undefined, body([{ role: 'assistant', content: 'Earlier.' }]), answered('resp_3'));
    expect(store.inputItems('k', 'resp_3')![0]).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Earlier.', annotations: [] }] });
  });

  it('delete() forgets the answer and its items; what went on from it has no chain', () => {
    const store = new ResponseStore();
    store.put('k', 'resp_1', undefined, body('a'), answered('resp_1', { id: 'msg_a', ...said('A') }));
    store.put('k', 'resp_2', 'resp_1', body('b'), answered('resp_2'));
    expect(store.delete('other', 'resp_1')).toBe(false);
    expect(store.delete('k', 'resp_1')).toBe(true);
    expect(store.delete('k', 'resp_1')).toBe(false);
    expect(store.answerJson('k', 'resp_1')).toBeUndefined();
    expect(store.item('k', 'msg_a')).toBeUndefined();
    expect(store.conversation('k', 'resp_2')).toBeUndefined();
    expect(store.size).toBe(1);
    // what is left of its input items is its own
    expect(store.inputItems('k', 'resp_2')!.map((i) => i.id)).toEqual(['msg_2_in0']);
  });

  it('put() says whether it kept the answer', () => {
    const store = new ResponseStore({ bytes: 500 });
    expect(store.put('', 'r1', undefined, body([]), answered('r1'))).toBe(true);
    expect(store.put('', 'r2', undefined, body([user('x'.repeat(600))]), answered('r2'))).toBe(false);
  });
});

describe('inputItems', () => {
  it('a string is one user message; an array is itself; anything else nothing', () => {
    expect(inputItems('hi')).toEqual([{ type: 'message', role: 'user', content: 'hi' }]);
    expect(inputItems([user('a')])).toEqual([user('a')]);
    expect(inputItems(undefined)).toEqual([]);
  });
});
