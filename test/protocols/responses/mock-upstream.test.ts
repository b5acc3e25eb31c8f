/**
 * The encoder's requests against the team's OpenAI Responses mock (which rejects what OpenAI
 * rejects: unknown parameters, non-fc call ids, unverifiable or dangling reasoning, outputs
 * without calls), and the decoders reading what it answers — a two-turn tool conversation with
 * encrypted reasoning replayed statelessly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent, HubRequest, Item } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { startResponsesMock, type ResponsesMock } from '../../fixtures/mock-upstream/index.js';
import { decodeChunks as replay } from '../shared/helpers.js';

let mock: ResponsesMock;

beforeAll(async () => {
  mock = await startResponsesMock();
});
afterAll(async () => {
  await mock.close();
});

async function post(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${mock.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Hub output items rebuilt from stream events (what routing's history would hold). */
function itemsFrom(events: HubEvent[]): Item[] {
  const blocks = new Map<number, Item>();
  for (const e of events) {
    if (e.type === 'block_start') {
      const b = e.block;
      blocks.set(
        e.index,
        b.type === 'function_call'
          ? { type: 'function_call', callId: b.callId, name: b.name, arguments: '' }
          : b.type === 'reasoning'
            ? { type: 'reasoning', text: '', origin: { kind: 'unsigned' } }
            : { type: 'message', role: 'assistant', content: [{ type: b.type === 'text' ? 'text' : 'refusal', text: '' }] },
      );
    }
    const item = 'index' in e ? blocks.get(e.index) : undefined;
    if (!item) continue;
    if (e.type === 'reasoning_delta' && item.type === 'reasoning') item.text += e.text;
    if (e.type === 'reasoning_origin' && item.type === 'reasoning') item.origin = e.origin;
    if (e.type === 'arguments_delta' && item.type === 'function_call') item.arguments += e.json;
    if ((e.type === 'text_delta' || e.type === 'refusal_delta') && item.type === 'message') {
      const part = item.content[0]!;
      if (part.type === 'text' || part.type === 'refusal') part.text += e.text;
    }
  }
  return [...blocks.values()];
}

const tools: HubRequest['tools'] = [
  { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
];

describe('responses codec against the OpenAI Responses mock', () => {
  it('two streamed turns: reasoning comes back encrypted and is accepted on replay', async () => {
    mock.reset();
    mock.next(
      { kind: 'turn', turn: { reasoning: { text: 'Need the weather in Zürich.' }, toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Zürich' } }] } },
      { kind: 'turn', turn: { reasoning: { text: 'Summarise.' }, text: 'It is 18 °C in Zürich.' } },
    );
    const history: Item[] = [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'Weather in Zürich?' }] }];
    const turn1: HubRequest = { model: 'gpt-5.4', system: [{ text: 'Be brief.' }], items: history, tools, stream: true, reasoning: { effort: 'high' } };
    const res1 = await post(responsesCodec.encodeRequest(turn1, { replayReasoning: ['openai'] }));
    expect(res1.status).toBe(200);
    const events1 = replay(responsesCodec.createStreamDecoder(), [new Uint8Array(await res1.arrayBuffer())]);
    expect(events1.at(-1)).toMatchObject({ type: 'finish', stopReason: 'tool_use' });
    const out1 = itemsFrom(events1);
    expect(out1.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(out1[0]).toMatchObject({ text: 'Need the weather in Zürich.', origin: { kind: 'openai' } });
    expect(out1[1]).toEqual({ type: 'function_call', callId: 'call_w1', name: 'get_weather', arguments: '{"city":"Zürich"}' });

    // Turn 2 replays the reasoning (with foreign reasoning mixed in, which must be dropped).
    const turn2: HubRequest = {
      ...turn1,
      items: [
        ...history,
        { type: 'reasoning', text: 'foreign', origin: { kind: 'anthropic', signature: 'sig' } },
        ...out1,
        { type: 'function_call_output', callId: 'call_w1', output: '18 °C' },
      ],
    };
    const res2 = await post(responsesCodec.encodeRequest(turn2, { replayReasoning: ['openai'] }));
    expect(res2.status).toBe(200);
    const sent = mock.lastGeneration().body as { input: Array<Record<string, unknown>>; store: boolean };
    expect(sent.store).toBe(false);
    expect(sent.input.map((i) => i.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    const events2 = replay(responsesCodec.createStreamDecoder(), [new Uint8Array(await res2.arrayBuffer())]);
    const out2 = itemsFrom(events2);
    expect(out2.at(-1)).toEqual({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'It is 18 °C in Zürich.' }] });
    expect(events2.at(-1)).toMatchObject({ type: 'finish', stopReason: 'end_turn', usage: { inputTokens: expect.any(Number) as number } });
  });

  it('non-streamed: decodeResponse reads the mock answer; an in-stream failure becomes an error event', async () => {
    mock.reset();
    mock.next(
      { kind: 'turn', turn: { text: 'Hi there', finish: 'length', usage: { input: 10, output: 5, cacheRead: 4 } } },
      { kind: 'turn', turn: { text: 'This will break', stream: { errorAfter: 4 } } },
    );
    // a reasoning model: the codec alone asks for encrypted reasoning, which the openai adapter drops for gpt-4.1
    const base: HubRequest = { model: 'gpt-5.4', system: [], items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], stream: false };
    const res = await post(responsesCodec.encodeRequest(base, { replayReasoning: ['openai'] }));
    const hub = responsesCodec.decodeResponse(await res.json());
    expect(hub.stopReason).toBe('max_tokens');
    expect(hub.output).toEqual([{ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi there' }] }]);
    expect(hub.usage).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, reasoningTokens: 0 });

    const res2 = await post(responsesCodec.encodeRequest({ ...base, stream: true }, { replayReasoning: ['openai'] }));
    const events = replay(responsesCodec.createStreamDecoder(), [new Uint8Array(await res2.arrayBuffer())]);
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: 'upstream_error', status: 500 } });
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });
});
