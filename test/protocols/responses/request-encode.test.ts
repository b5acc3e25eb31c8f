import { describe, expect, it } from 'vitest';
import type { EncodeRequestOptions } from '../../../src/protocols/codec.js';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { HubRequest, Item } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { fixtureNames, jsonFixture } from './fixtures.js';

const OPENAI: EncodeRequestOptions = { replayReasoning: ['openai'] };

function hub(items: Item[], extra: Partial<HubRequest> = {}): HubRequest {
  return { model: 'gpt-5', system: [], items, tools: [], stream: false, ...extra };
}

describe('responses encodeRequest: golden fixtures', () => {
  for (const name of fixtureNames('request-encode')) {
    it(name, () => {
      const fx = jsonFixture<{ hub: HubRequest; opts: EncodeRequestOptions; expected: unknown }>('request-encode', `${name}.json`);
      expect(responsesCodec.encodeRequest(fx.hub, fx.opts)).toEqual(fx.expected);
    });
  }
});

describe('responses encodeRequest: what Responses cannot express', () => {
  it('rejects n > 1 with unsupported_feature', () => {
    const err = (() => {
      try {
        responsesCodec.encodeRequest(hub([{ type: 'message', role: 'user', content: [{ type: 'text', text: 'x' }] }], { n: 2 }), OPENAI);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ status: 400, code: 'unsupported_feature', param: 'n' });
  });

  it('rejects audio input with unsupported_modality, in messages and in tool outputs', () => {
    const audio = { type: 'audio' as const, data: 'UklGRg==', format: 'wav' };
    expect(() => responsesCodec.encodeRequest(hub([{ type: 'message', role: 'user', content: [audio] }]), OPENAI)).toThrow(
      expect.objectContaining({ code: 'unsupported_modality', status: 400 }),
    );
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'x' }] },
      { type: 'function_call', callId: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'c', output: [audio] },
    ];
    expect(() => responsesCodec.encodeRequest(hub(items), OPENAI)).toThrow(expect.objectContaining({ code: 'unsupported_modality' }));
  });

  it('keeps safety_identifier within 64 characters by hashing longer user ids', () => {
    const msg: Item[] = [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'x' }] }];
    const long = 'user_' + 'a'.repeat(64) + '_account__session_8c1a6c5e-9a8f-4f5e-b1a3-2f6a1c0e9d71';
    const a = responsesCodec.encodeRequest(hub(msg, { user: long }), OPENAI).safety_identifier as string;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(responsesCodec.encodeRequest(hub(msg, { user: long }), OPENAI).safety_identifier).toBe(a);
    expect(responsesCodec.encodeRequest(hub(msg, { user: long + 'x' }), OPENAI).safety_identifier).not.toBe(a);
    expect(responsesCodec.encodeRequest(hub(msg, { user: 'short-id' }), OPENAI).safety_identifier).toBe('short-id');
  });

  it('drops stop sequences silently (Responses has none)', () => {
    const body = responsesCodec.encodeRequest(hub([{ type: 'message', role: 'user', content: [{ type: 'text', text: 'x' }] }], { stop: ['END'] }), OPENAI);
    expect(JSON.stringify(body)).not.toContain('END');
    expect(body).not.toHaveProperty('stop');
  });
});

describe('responses encodeRequest: regressions', () => {
  const foreignIds = ['toolu_01ABC', 'call_xyz', 'tooluse_1', 'abc', 'fc_native', '0'];

  it("a failed tool result says so once: 'Error: ' only when its text does not already start with it", () => {
    const outputs = ['city not found', 'Error: city not found', [{ type: 'text' as const, text: 'Error: no' }]].map((output) => {
      const items: Item[] = [
        { type: 'message', role: 'user', content: [{ type: 'text', text: 'go' }] },
        { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', callId: 'c1', output, isError: true },
      ];
      const input = responsesCodec.encodeRequest(hub(items), OPENAI).input as Array<Record<string, unknown>>;
      return input.find((i) => i.type === 'function_call_output')!.output;
    });
    expect(outputs).toEqual(['Error: city not found', 'Error: city not found', 'Error: no']);
  });

  it('never puts an id on an input function_call (OpenAI demands fc-prefixed ids; call_id correlates)', () => {
    const items: Item[] = [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'go' }] }];
    for (const id of foreignIds) {
      items.push({ type: 'function_call', callId: id, name: 'f', arguments: '{}' });
      items.push({ type: 'function_call_output', callId: id, output: 'ok' });
    }
    const body = responsesCodec.encodeRequest(hub(items), OPENAI);
    const input = body.input as Array<Record<string, unknown>>;
    const calls = input.filter((i) => i.type === 'function_call');
    expect(calls).toHaveLength(foreignIds.length);
    for (const call of calls) {
      expect(call).not.toHaveProperty('id');
      expect(Object.keys(call).sort()).toEqual(['arguments', 'call_id', 'name', 'type']);
    }
    expect(calls.map((c) => c.call_id)).toEqual(foreignIds);
  });

  it('never turns reasoning into visible text, whatever its origin and whatever the target replays', () => {
    const origins = [
      { kind: 'anthropic', signature: 'sig' },
      { kind: 'anthropic_redacted', data: 'redacted' },
      { kind: 'openai', id: 'rs_1', encryptedContent: 'enc' },
      { kind: 'openrouter', details: [{ type: 'reasoning.text', text: 'SECRET-REASONING' }] },
      { kind: 'unsigned' },
    ] as const;
    for (const replay of [[], ['openai'], ['anthropic', 'openrouter', 'unsigned', 'anthropic_redacted']] as const) {
      for (const origin of origins) {
        const items: Item[] = [
          { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
          { type: 'reasoning', text: 'SECRET-REASONING', origin },
          { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
        ];
        const body = responsesCodec.encodeRequest(hub(items), { replayReasoning: replay });
        const input = body.input as Array<Record<string, unknown>>;
        for (const item of input) {
          if (item.type === 'reasoning') continue;
          expect(JSON.stringify(item)).not.toContain('SECRET-REASONING');
        }
        const reasoning = input.filter((i) => i.type === 'reasoning');
        const expectReplay = origin.kind === 'openai' && (replay as readonly string[]).includes('openai');
        expect(reasoning).toHaveLength(expectReplay ? 1 : 0);
        // Never an envelope to OpenAI: only its own encrypted content goes back.
        expect(JSON.stringify(body)).not.toContain('svcp1.');
      }
    }
  });

  it('places replayed reasoning immediately before the item that followed it, never two in a row', () => {
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'reasoning', text: 'z', origin: { kind: 'openai', id: 'rs_z', encryptedContent: 'ez' } },
      { type: 'reasoning', text: 'a', origin: { kind: 'openai', id: 'rs_a', encryptedContent: 'ea' } },
      { type: 'reasoning', text: 'x', origin: { kind: 'anthropic', signature: 's' } },
      { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'c1', output: 'r' },
      { type: 'reasoning', text: 'b', origin: { kind: 'openai', id: 'rs_b', encryptedContent: 'eb' } },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
    const input = responsesCodec.encodeRequest(hub(items), OPENAI).input as Array<Record<string, unknown>>;
    expect(input.map((i) => (i.type === 'reasoning' ? `rs:${String(i.id)}` : String(i.type ?? i.role)))).toEqual([
      'message',
      'rs:rs_a',
      'function_call',
      'function_call_output',
      'rs:rs_b',
      'message',
    ]);
  });

  it('sends strict:false unless the client asked for strict', () => {
    const body = responsesCodec.encodeRequest(
      hub([{ type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] }], {
        tools: [
          { type: 'function', name: 'a' },
          { type: 'function', name: 'b', strict: false },
          { type: 'function', name: 'c', strict: true, parameters: { type: 'object', properties: {}, additionalProperties: false } },
        ],
      }),
      OPENAI,
    );
    expect((body.tools as Array<{ strict: boolean }>).map((t) => t.strict)).toEqual([false, false, true]);
  });
});

describe('responses encodeRequest: system text from the middle of a conversation', () => {
  const user = (text: string): Item => ({ type: 'message', role: 'user', content: [{ type: 'text', text }] });
  const said = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

  it('stays in place as a message of its role; the leading ones are the instructions; parts of one place join', () => {
    const body = responsesCodec.encodeRequest(
      hub([user('a'), user('b')], {
        system: [
          { text: 'Lead.' },
          { text: 'Now French.', inline: { beforeItem: 1, role: 'developer' } },
          { text: 'Be brief.', inline: { beforeItem: 1, role: 'developer' } },
          { text: '', inline: { beforeItem: 2, role: 'system' } },
          { text: 'Last word.', inline: { beforeItem: 2, role: 'system' } },
        ],
      }),
      OPENAI,
    );
    expect(body.instructions).toBe('Lead.');
    expect(body.input).toEqual([
      said('a'),
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Now French.' }, { type: 'input_text', text: 'Be brief.' }] },
      said('b'),
      { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Last word.' }] },
    ]);
  });

  it('one written between a call and its results goes after the results', () => {
    const items: Item[] = [
      user('go'),
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call', callId: 'call_2', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'call_1', output: [{ type: 'text', text: '1' }] },
      { type: 'function_call_output', callId: 'call_2', output: [{ type: 'text', text: '2' }] },
      user('next'),
    ];
    const body = responsesCodec.encodeRequest(hub(items, { system: [{ text: 'Mind the results.', inline: { beforeItem: 3, role: 'system' } }] }), OPENAI);
    expect(body.instructions).toBeUndefined();
    expect((body.input as Array<{ type: string; role?: string }>).map((i) => i.role ?? i.type)).toEqual(['user', 'function_call', 'function_call', 'function_call_output', 'function_call_output', 'system', 'user']);
  });
});
