import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callIdOf, toolUseId } from '../../../src/protocols/messages/ids.js';
import { decodeRequest } from '../../../src/protocols/messages/request-decode.js';
import { encodeRequest } from '../../../src/protocols/messages/request-encode.js';
import { encodeResponse } from '../../../src/protocols/messages/response-encode.js';

const ANTHROPIC_ID = /^[a-zA-Z0-9_-]+$/;

describe('tool_use ids', () => {
  it('every call id becomes one Anthropic takes and comes back exactly (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('functions.get_weather:0', 'svcp_abc', 'a b', '')), (id) => {
        const safe = toolUseId(id);
        expect(safe).toMatch(id === '' ? /^svcp_$/ : ANTHROPIC_ID);
        expect(callIdOf(safe)).toBe(id);
      }),
    );
  });

  it('ids Anthropic takes are left as they are, and only an exact round trip is decoded', () => {
    expect(toolUseId('toolu_01ABC-x')).toBe('toolu_01ABC-x');
    expect(toolUseId('call_abc')).toBe('call_abc');
    expect(callIdOf('toolu_01ABC')).toBe('toolu_01ABC');
    expect(callIdOf('svcp_!!')).toBe('svcp_!!');
    expect(callIdOf('svcp_YQ')).toBe('svcp_YQ'); // "a" would be sent as itself, so this is nobody's encoding
  });

  it('codecs: a Kimi id goes out safe to Messages and in again as it was', () => {
    const kimi = 'functions.get_weather:0';
    const answer = encodeResponse(
      { id: 'x', model: 'm', output: [{ type: 'function_call', callId: kimi, name: 'get_weather', arguments: '{}' }], stopReason: 'tool_use' },
      { model: 'ca/kimi' },
    ) as { content: Array<{ id: string }> };
    const shown = answer.content[0]!.id;
    expect(shown).toMatch(ANTHROPIC_ID);

    const hub = decodeRequest({
      model: 'ca/kimi',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'tool_use', id: shown, name: 'get_weather', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: shown, content: 'sunny' }] },
      ],
    });
    expect(hub.items.filter((i) => i.type === 'function_call' || i.type === 'function_call_output').map((i) => (i as { callId: string }).callId)).toEqual([kimi, kimi]);

    const body = encodeRequest({ ...hub, model: 'claude' }, { replayReasoning: ['anthropic'] }) as { messages: Array<{ content: Array<Record<string, unknown>> }> };
    expect(body.messages[1]!.content[0]!.id).toBe(shown);
    expect(body.messages[2]!.content[0]!.tool_use_id).toBe(shown);
  });
});
