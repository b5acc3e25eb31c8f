/** The answers kept for previous_response_id: chains, bounds, expiry. */
import { describe, expect, it } from 'vitest';
import { inputItems, ResponseStore } from '../../src/routing/response-store.js';

const user = (text: string) => ({ type: 'message', role: 'user', content: text });
const said = (text: string) => ({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
/** A request body as a client sends it: only its input is the conversation's. */
const body = (input: unknown) => Buffer.from(JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', instructions: 'Be terse.', tools: [], input }));

describe('ResponseStore', () => {
  it('a chain is its links’ input and output items, oldest first (a string input is one user message)', () => {
    const store = new ResponseStore();
    store.put('', 'resp_1', undefined, body('a'), [said('A')]);
    store.put('', 'resp_2', 'resp_1', body([user('b')]), [said('B')]);
    store.put('', 'resp_3', 'resp_2', body([user('c')]), [said('C')]);
    expect(store.conversation('', 'resp_3')).toEqual([user('a'), said('A'), user('b'), said('B'), user('c'), said('C')]);
    expect(store.conversation('', 'resp_2')).toEqual([user('a'), said('A'), user('b'), said('B')]);
    // a branch from an earlier answer
    store.put('', 'resp_4', 'resp_1', body([user('x')]), [said('X')]);
    expect(store.conversation('', 'resp_4')).toEqual([user('a'), said('A'), user('x'), said('X')]);
    expect(store.conversation('', 'resp_nope')).toBeUndefined();
  });

  it('keeps its own copy of the request bytes', () => {
    const store = new ResponseStore();
    const bytes = body([user('before')]);
    store.put('', 'r1', undefined, bytes, [said('A')]);
    bytes.fill(0x20);
    expect(store.conversation('', 'r1')).toEqual([user('before'), said('A')]);
  });

  it('a chain with a link gone is no chain; a cycle is none either', () => {
    const store = new ResponseStore();
    store.put('', 'resp_2', 'resp_1', body([]), [said('B')]);
    expect(store.conversation('', 'resp_2')).toBeUndefined();
    store.put('', 'resp_a', 'resp_b', body([]), [said('a')]);
    store.put('', 'resp_b', 'resp_a', body([]), [said('b')]);
    expect(store.conversation('', 'resp_a')).toBeUndefined();
  });

  it('the least recently used go first past the count or the bytes; an answer too large is not kept', () => {
    const store = new ResponseStore({ count: 3, bytes: 1000 });
    for (const id of ['r1', 'r2', 'r3']) store.put('', id, undefined, body([]), [said(id)]);
    expect(store.conversation('', 'r1')).toBeDefined(); // r1 used: r2 is now the oldest
    store.put('', 'r4', undefined, body([]), [said('r4')]);
    expect(store.size).toBe(3);
    expect(store.conversation('', 'r2')).toBeUndefined();
    expect(store.conversation('', 'r1')).toBeDefined();
    // ~980 bytes with its request: the bytes bound pushes the others out
    store.put('', 'big', undefined, body([]), [said('x'.repeat(800))]);
    expect(store.conversation('', 'big')).toBeDefined();
    expect(store.size).toBe(1);
    store.put('', 'huge', undefined, body([user('x'.repeat(2000))]), []);
    expect(store.conversation('', 'huge')).toBeUndefined();
  });

  it('an answer unused for the time-to-live is forgotten; using a chain keeps every link', () => {
    let now = 0;
    const store = new ResponseStore({ ttlMs: 1000, now: () => now });
    store.put('', 'r1', undefined, body([]), [said('1')]);
    store.put('', 'r2', 'r1', body([]), [said('2')]);
    now = 900;
    expect(store.conversation('', 'r2')).toHaveLength(2); // both links used at 900
    now = 1800;
    expect(store.conversation('', 'r2')).toHaveLength(2);
    now = 2900;
    expect(store.conversation('', 'r2')).toBeUndefined();
    expect(store.conversation('', 'r1')).toBeUndefined();
  });

  it('an item_reference finds the item of a kept answer, in its own scope; replayed items lose our ids, reasoning keeps its', () => {
    const store = new ResponseStore({ count: 2 });
    const reasoning = { id: 'rs_x_0', type: 'reasoning', summary: [], encrypted_content: 'svc1.abc' };
    const message = { id: 'msg_x_1', ...said('A') };
    store.put('key1', 'resp_x', undefined, body('a'), [reasoning, message]);
    expect(store.item('key1', 'msg_x_1')).toEqual(said('A'));
    expect(store.item('key1', 'rs_x_0')).toEqual(reasoning);
    expect(store.item('key2', 'msg_x_1')).toBeUndefined();
    expect(store.item('key1', 'msg_nope')).toBeUndefined();
    expect(store.conversation('key1', 'resp_x')).toEqual([user('a'), reasoning, said('A')]);
    // the answer evicted, its items go with it
    store.put('key1', 'r2', undefined, body([]), []);
    store.put('key1', 'r3', undefined, body([]), []);
    expect(store.item('key1', 'msg_x_1')).toBeUndefined();
  });

  it('putting an id again replaces it', () => {
    const store = new ResponseStore();
    store.put('', 'r1', undefined, body([]), [said('old')]);
    store.put('', 'r1', undefined, body([]), [said('new')]);
    expect(store.conversation('', 'r1')).toEqual([said('new')]);
    expect(store.size).toBe(1);
  });
});

describe('inputItems', () => {
  it('a string is one user message; an array is itself; anything else nothing', () => {
    expect(inputItems('hi')).toEqual([{ type: 'message', role: 'user', content: 'hi' }]);
    expect(inputItems([user('a')])).toEqual([user('a')]);
    expect(inputItems(undefined)).toEqual([]);
  });
});
