/** One Responses request against the kept answers: what it resolves, what it leaves for OpenAI. */
import { describe, expect, it } from 'vitest';
import type { ResponseContext } from '../../src/protocols/codec.js';
import type { HubResponse } from '../../src/protocols/hub.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { KeptTurn } from '../../src/routing/kept-turn.js';
import { ResponseStore } from '../../src/routing/response-store.js';

const raw = (body: Record<string, unknown>) => Buffer.from(JSON.stringify(body));
const said = (id: string, text: string) => ({ id, type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

function storeWith(): ResponseStore {
  const store = new ResponseStore();
  store.put('k', 'resp_1', undefined, raw({ model: 'm', input: 'a' }), { id: 'resp_1', output: [said('msg_1', 'A')] });
  return store;
}

describe('KeptTurn', () => {
  it('a reference to a kept item is resolved; an OpenAI previous_response_id beside it stays for OpenAI', () => {
    const turn = new KeptTurn(storeWith(), 'k');
    const body = { model: 'm', previous_response_id: 'resp_openai', input: [{ type: 'item_reference', id: 'msg_1' }, { role: 'user', content: 'b' }] };
    const out = JSON.parse(turn.resolve(body, raw(body))!.toString()) as Record<string, unknown>;
    expect(out.previous_response_id).toBe('resp_openai');
    expect(out.input).toEqual([{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A' }] }, { role: 'user', content: 'b' }]);
    expect(turn.unkept(out)).toBe('resp_openai');
  });

  it('a kept previous_response_id is resolved and removed; nothing is left unkept', () => {
    const turn = new KeptTurn(storeWith(), 'k');
    const body = { model: 'm', previous_response_id: 'resp_1', input: 'b' };
    const out = JSON.parse(turn.resolve(body, raw(body))!.toString()) as Record<string, unknown>;
    expect(out).not.toHaveProperty('previous_response_id');
    expect(turn.unkept(body)).toBeUndefined();
  });

  it('goOn: the conversation read from OpenAI goes first; the answer keeps it all, with no link, and names the id', () => {
    const store = storeWith();
    const turn = new KeptTurn(store, 'k');
    const body = { model: 'm', previous_response_id: 'resp_openai', input: 'next' };
    expect(turn.resolve(body, raw(body))).toBeUndefined();
    const earlier = [{ id: 'msg_o1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first' }] }, said('msg_o2', 'Reply')];
    const out = JSON.parse(turn.goOn('resp_openai', earlier, raw(body)).toString()) as Record<string, unknown>;
    expect(out).not.toHaveProperty('previous_response_id');
    expect(out.input).toEqual([...earlier, { type: 'message', role: 'user', content: 'next' }]);
    const ctx = turn.context({} as ResponseContext);
    expect(ctx.previousResponseId).toBe('resp_openai');
    ctx.onFinal!({ id: 'resp_2', output: [said('msg_2', 'Two')] });
    expect(store.conversation('k', 'resp_2')).toHaveLength(4);
  });

  it('a kept answer whose chain lost a link (deleted) is refused with what is missing, not sent to OpenAI to look up', () => {
    const store = storeWith();
    store.put('k', 'resp_2', 'resp_1', raw({ model: 'm', input: 'b' }), { id: 'resp_2', output: [said('msg_2', 'B')] });
    store.put('k', 'resp_3', 'resp_2', raw({ model: 'm', input: 'c' }), { id: 'resp_3', output: [said('msg_3', 'C')] });
    expect(store.missingLink('k', 'resp_3')).toBeUndefined();
    store.delete('k', 'resp_2');
    expect(store.missingLink('k', 'resp_3')).toBe('resp_2');
    expect(store.missingLink('k', 'resp_1')).toBeUndefined();
    expect(store.missingLink('k', 'resp_gone')).toBeUndefined();
    const body = { model: 'm', previous_response_id: 'resp_3', input: 'd' };
    expect(() => new KeptTurn(store, 'k').resolve(body, raw(body))).toThrow(
      expect.objectContaining({ status: 400, code: 'previous_response_not_found', message: expect.stringContaining('resp_3 is kept, but resp_2, which it went on from, was deleted') }),
    );
  });

  it('an answer too large for the store is not kept, and its onFinal says so', () => {
    const store = new ResponseStore({ bytes: 200 });
    const turn = new KeptTurn(store, 'k');
    const body = { model: 'm', input: 'x'.repeat(300) };
    turn.resolve(body, raw(body));
    const ctx = turn.context({} as ResponseContext);
    expect(ctx.kept).toBe(true);
    expect(ctx.onFinal!({ id: 'resp_big', output: [] })).toBe(false);
    expect(store.answerJson('k', 'resp_big')).toBeUndefined();
  });

  it('an upstream id that would name a kept answer again (Ollama reuses chatcmpl-0 … 998) is not reused, whole or streamed', () => {
    const store = storeWith();
    const ctx = (key: string) => new KeptTurn(store, key).context({ model: 'lm/llama' });
    const answer = (id: string): HubResponse => ({ id, model: 'llama', output: [{ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'B' }] }], stopReason: 'end_turn' }) as HubResponse;
    const whole = responsesCodec.encodeResponse(answer('chatcmpl-1'), ctx('k'));
    expect(whole.id).toMatch(/^resp_[0-9a-f]{24}$/);
    expect(responsesCodec.encodeResponse(answer('chatcmpl-2'), ctx('k')).id).toBe('resp_2');
    // another key's answers are not in the way
    expect(responsesCodec.encodeResponse(answer('chatcmpl-1'), ctx('other')).id).toBe('resp_1');
    const sse = responsesCodec.createStreamEncoder(ctx('k')).encode({ type: 'start', id: 'chatcmpl-1' });
    expect(sse).not.toContain('"id":"resp_1"');
    expect(sse).toMatch(/"id":"resp_[0-9a-f]{24}"/);
    // (encoding keeps nothing: the first answer is still the one kept)
    expect(store.answerJson('k', 'resp_1')).toContain('"text":"A"');
  });
});
