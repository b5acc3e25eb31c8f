import { describe, expect, it } from 'vitest';
import type { EncodeRequestOptions } from '../../../src/protocols/codec.js';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { HubRequest, Item } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { FALLBACK_MAX_TOKENS, PLACEHOLDER_USER_TEXT } from '../../../src/protocols/messages/request-encode.js';
import type { Loose } from '../shared/helpers.js';
import { fixtureJson } from './helpers.js';

const ANTHROPIC: EncodeRequestOptions = { replayReasoning: ['anthropic', 'anthropic_redacted'], defaultMaxTokens: 8192, keepCacheControl: true };

function hub(extra: Partial<HubRequest> = {}): HubRequest {
  return { model: 'claude-sonnet-4-6', system: [], items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], stream: false, ...extra };
}

const encode = (req: HubRequest, opts: EncodeRequestOptions = ANTHROPIC) => messagesCodec.encodeRequest(req, opts) as Loose;

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolError);
    return (e as ProtocolError).code;
  }
  throw new Error('expected a ProtocolError');
}

/** Every object in `v` that carries a cache_control, with the type of the block holding it. */
function cacheHolders(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => cacheHolders(x, out));
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('cache_control' in o) out.push(String(o.type ?? 'top-level-or-tool'));
    for (const [k, x] of Object.entries(o)) if (k !== 'cache_control') cacheHolders(x, out);
  }
  return out;
}

describe('Messages encodeRequest: conversation shape', () => {
  it('turns a Chat tool sequence into assistant[tool_use…] then user[tool_result…, text]', () => {
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{"a":1}' },
      { type: 'function_call', callId: 'call_2', name: 'f', arguments: '{"a":2}' },
      { type: 'function_call_output', callId: 'call_1', output: 'r1' },
      { type: 'function_call_output', callId: 'call_2', output: 'r2' },
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'next' }] },
    ];
    const body = encode(hub({ items, tools: [{ type: 'function', name: 'f' }] }));
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } }, { type: 'tool_use', id: 'call_2', name: 'f', input: { a: 2 } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'r1' }, { type: 'tool_result', tool_use_id: 'call_2', content: 'r2' }, { type: 'text', text: 'next' }] },
    ]);
  });

  it('puts tool results first even when the user text came before them', () => {
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'function_call', callId: 'c', name: 'f', arguments: '{}' },
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'early text' }] },
      { type: 'function_call_output', callId: 'c', output: 'r' },
    ];
    expect(encode(hub({ items })).messages[2].content.map((b: { type: string }) => b.type)).toEqual(['tool_result', 'text']);
  });

  it('orders an assistant turn thinking → text → tool_use', () => {
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'text' }] },
      { type: 'function_call', callId: 'c', name: 'f', arguments: '{}' },
      { type: 'reasoning', text: 'late thought', origin: { kind: 'anthropic', signature: 'S' } },
    ];
    expect(encode(hub({ items })).messages[1].content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'text', 'tool_use']);
  });

  it('starts with a user turn, drops empty turns and merges what becomes adjacent', () => {
    const items: Item[] = [
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { type: 'message', role: 'user', content: [{ type: 'text', text: '' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'again' }] },
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
    ];
    const msgs = encode(hub({ items })).messages;
    expect(msgs.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(msgs[1].content).toEqual([{ type: 'text', text: 'hello' }, { type: 'text', text: 'again' }]);
  });

  it('drops whitespace-only text (beside tool calls, as a whole turn, in system and tool output) and keeps roles alternating', () => {
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }, { type: 'text', text: ' ' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: '\n\n' }] },
      { type: 'function_call', callId: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'c', output: [{ type: 'text', text: '\t' }, { type: 'text', text: 'r' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'refusal', text: ' \n ' }] },
      { type: 'message', role: 'user', content: [{ type: 'text', text: ' ' }, { type: 'text', text: 'next' }] },
    ];
    const body = encode(hub({ items, system: [{ text: 'sys' }, { text: ' \n' }], tools: [{ type: 'function', name: 'f' }] }));
    expect(body.system).toEqual([{ type: 'text', text: 'sys' }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: [{ type: 'text', text: 'r' }] }, { type: 'text', text: 'next' }] },
    ]);
  });

  it('keeps a blank latest user message as a placeholder turn, so the assistant turn before it is no prefill', () => {
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { type: 'message', role: 'user', content: [{ type: 'text', text: '  ' }] },
    ];
    expect(encode(hub({ items })).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'q' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { role: 'user', content: [{ type: 'text', text: PLACEHOLDER_USER_TEXT }] },
    ]);
    // A trailing assistant turn the client wrote is a prefill it asked for: left as it is.
    expect(encode(hub({ items: items.slice(0, 2) })).messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  });

  it('refuses an empty conversation and n > 1', () => {
    expect(codeOf(() => encode(hub({ items: [] })))).toBe('invalid_messages');
    expect(codeOf(() => encode(hub({ items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: '' }] }] })))).toBe('invalid_messages');
    expect(codeOf(() => encode(hub({ n: 2 })))).toBe('unsupported_feature');
  });
});

describe('Messages encodeRequest: reasoning', () => {
  const withReasoning: Item[] = [
    { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
    { type: 'reasoning', text: 'SECRET-OPENAI-SUMMARY', origin: { kind: 'openai', id: 'rs_1', encryptedContent: 'ENC' } },
    { type: 'reasoning', text: 'SECRET-UNSIGNED', origin: { kind: 'unsigned' } },
    { type: 'reasoning', text: 'SECRET-OR', origin: { kind: 'openrouter', details: [{ type: 'reasoning.text', text: 'x' }] } },
    { type: 'reasoning', text: 'signed thought', origin: { kind: 'anthropic', signature: 'SIG' } },
    { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
  ];

  it('never turns reasoning into text, and replays only Anthropic proofs the target accepts', () => {
    const body = encode(hub({ items: withReasoning }));
    const json = JSON.stringify(body);
    expect(json).not.toMatch(/SECRET/);
    expect(body.messages[1].content).toEqual([{ type: 'thinking', thinking: 'signed thought', signature: 'SIG' }, { type: 'text', text: 'answer' }]);
    // A target that takes no reasoning back gets none.
    const none = encode(hub({ items: withReasoning }), { replayReasoning: [] });
    expect(JSON.stringify(none)).not.toMatch(/thinking|SECRET/);
  });

  it('never sends our envelope to a Messages upstream', () => {
    const body = encode(hub({ items: withReasoning }), { replayReasoning: ['anthropic', 'anthropic_redacted', 'openai', 'unsigned', 'openrouter'] });
    expect(JSON.stringify(body)).not.toMatch(/svcp1\.|SECRET/);
  });

  it('writes effort and thinking settings in Anthropic terms', () => {
    const r = (reasoning: HubRequest['reasoning']) => {
      const b = encode(hub({ reasoning }));
      return { thinking: b.thinking, output_config: b.output_config };
    };
    expect(r({ effort: 'xhigh' })).toEqual({ thinking: { type: 'adaptive' }, output_config: { effort: 'xhigh' } });
    expect(r({ effort: 'none', thinkingType: 'enabled', budgetTokens: 5000 })).toEqual({ thinking: undefined, output_config: undefined });
    expect(r({ budgetTokens: 3000 })).toEqual({ thinking: { type: 'enabled', budget_tokens: 3000 }, output_config: undefined });
    expect(r({ thinkingType: 'enabled', effort: 'high' })).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 }, output_config: { effort: 'high' } });
    expect(r({ thinkingType: 'disabled', effort: 'low' })).toEqual({ thinking: { type: 'disabled' }, output_config: { effort: 'low' } });
    expect(r({ thinkingType: 'between_tools' })).toEqual({ thinking: { type: 'between_tools' }, output_config: undefined });
    expect(r({ thinkingType: 'adaptive', display: 'omitted' })).toEqual({ thinking: { type: 'adaptive', display: 'omitted' }, output_config: undefined });
    // `updates` needs its beta header, which a converted request does not carry
    expect(r({ thinkingType: 'adaptive', display: 'updates' })).toEqual({ thinking: { type: 'adaptive', display: 'summarized' }, output_config: undefined });
    expect(r({ effort: 'max', summary: 'detailed' })).toEqual({ thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'max' } });
  });
});

describe('Messages encodeRequest: cache_control', () => {
  it('keeps at most 4 breakpoints, the latest ones, and none on thinking blocks', () => {
    const cc = { type: 'ephemeral' as const };
    const items: Item[] = [];
    for (let i = 0; i < 6; i++) {
      items.push({ type: 'message', role: 'user', content: [{ type: 'text', text: `u${i}`, cacheControl: cc }] });
      items.push({ type: 'reasoning', text: 't', origin: { kind: 'anthropic', signature: `s${i}` } });
      items.push({ type: 'message', role: 'assistant', content: [{ type: 'text', text: `a${i}`, cacheControl: cc }] });
    }
    items.push({ type: 'message', role: 'user', content: [{ type: 'text', text: 'last', cacheControl: cc }] });
    const body = encode(hub({ items, system: [{ text: 's', cacheControl: cc }], tools: [{ type: 'function', name: 'f', cacheControl: cc }], cacheControl: cc }));
    const holders = cacheHolders(body);
    expect(holders.length).toBe(4);
    expect(holders).not.toContain('thinking');
    expect(body.cache_control).toEqual(cc);
    const last = body.messages[body.messages.length - 1];
    expect(last.content[0]).toEqual({ type: 'text', text: 'last', cache_control: cc });
  });

  it('strips every hint when the target does not take them', () => {
    const cc = { type: 'ephemeral' as const, ttl: '1h' as const };
    const body = encode(
      hub({
        system: [{ text: 's', cacheControl: cc }],
        tools: [{ type: 'function', name: 'f', cacheControl: cc }],
        cacheControl: cc,
        items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'x', cacheControl: cc }] }],
      }),
      { replayReasoning: ['anthropic'] },
    );
    expect(JSON.stringify(body)).not.toMatch(/cache_control/);
  });
});

describe('Messages encodeRequest: tools, media, sampling', () => {
  it('coerces schemas to objects and maps tool_choice', () => {
    const tools: HubRequest['tools'] = [
      { type: 'function', name: 'a', parameters: { type: 'string' } },
      { type: 'function', name: 'b' },
    ];
    const body = encode(hub({ tools, toolChoice: { type: 'function', name: 'a' } }));
    expect(body.tools).toEqual([
      { name: 'a', input_schema: { type: 'object' } },
      { name: 'b', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'a' });
    expect(encode(hub({ tools, parallelToolCalls: false })).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(encode(hub({ tools, toolChoice: { type: 'none' }, parallelToolCalls: false })).tool_choice).toEqual({ type: 'none' });
    expect(encode(hub({ toolChoice: { type: 'required' } })).tool_choice).toBeUndefined();
    expect(codeOf(() => encode(hub({ tools, toolChoice: { type: 'allowed_tools', mode: 'auto', names: ['zzz'] } })))).toBe('invalid_request');
    expect(codeOf(() => encode(hub({ tools: [{ type: 'hosted', raw: { type: 'web_search' } }] })))).toBe('unsupported_feature');
  });

  it('rejects media Anthropic cannot take', () => {
    const user = (content: Loose[]): HubRequest => hub({ items: [{ type: 'message', role: 'user', content }] });
    expect(codeOf(() => encode(user([{ type: 'audio', data: 'AAA', format: 'wav' }])))).toBe('unsupported_modality');
    expect(codeOf(() => encode(user([{ type: 'image', source: { kind: 'base64', mediaType: 'image/bmp', data: 'Qk0=' } }])))).toBe('unsupported_media_type');
    expect(codeOf(() => encode(user([{ type: 'file', source: { kind: 'base64', mediaType: 'application/msword', data: 'AA' } }])))).toBe('unsupported_media_type');
    expect(codeOf(() => encode(user([{ type: 'image', source: { kind: 'url', url: 'data:image/tiff;base64,SUkq' } }])))).toBe('unsupported_media_type');
    const ok = encode(user([{ type: 'image', source: { kind: 'url', url: 'data:image/png;base64,iVBO' } }, { type: 'file', source: { kind: 'url', url: 'data:application/pdf;base64,JVBE' } }]));
    expect(ok.messages[0].content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } },
    ]);
  });

  it('fills max_tokens, clamps temperature, filters stop and e-mail user ids', () => {
    expect(encode(hub(), { replayReasoning: [] }).max_tokens).toBe(FALLBACK_MAX_TOKENS);
    expect(encode(hub()).max_tokens).toBe(8192);
    expect(encode(hub({ maxOutputTokens: 123 })).max_tokens).toBe(123);
    expect(encode(hub({ temperature: 2 })).temperature).toBe(1);
    expect(encode(hub({ temperature: 0.3 })).temperature).toBe(0.3);
    expect(encode(hub({ stop: [' ', '\t'] })).stop_sequences).toBeUndefined();
    expect(encode(hub({ user: 'a.b@c.io' })).metadata).toBeUndefined();
    expect(encode(hub({ user: 'hash_123' })).metadata).toEqual({ user_id: 'hash_123' });
  });
});

describe('Messages request round trip (client → hub → Messages upstream)', () => {
  it('keeps thinking signatures, tool ids, order and cache hints of a Claude Code turn', () => {
    const { input } = fixtureJson<{ input: Loose }>('request-decode/claude-code-tool-turns.json');
    const body = encode(messagesCodec.decodeRequest(input));
    expect(body.messages[1].content[0]).toEqual(input.messages[1].content[0]);
    expect(body.messages[1].content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(body.messages[2].content.map((b: { type: string; tool_use_id?: string }) => b.tool_use_id ?? b.type)).toEqual(['toolu_01A', 'toolu_01B', 'text']);
    expect(body.system).toEqual(input.system.filter((s: { text: string }) => s.text !== ''));
    expect(body.thinking).toEqual(input.thinking);
    expect(body.output_config).toEqual(input.output_config);
    expect(body.max_tokens).toBe(input.max_tokens);
  });
});

describe('Messages encodeRequest: user → metadata.user_id', () => {
  it('passes an opaque user id and keeps an email address out', () => {
    expect(encode(hub({ user: 'user-42' })).metadata).toEqual({ user_id: 'user-42' });
    expect(encode(hub({ user: 'ann@example.com' })).metadata).toBeUndefined();
    expect(encode(hub({ user: 'a@b.c' })).metadata).toBeUndefined();
    for (const notEmail of ['a@.c', 'a@b.', 'a@bc', '@b.c', 'a b@c.d', 'a@b@c.d']) expect(encode(hub({ user: notEmail })).metadata).toEqual({ user_id: notEmail });
  });

  it('reads a long crafted user value in linear time (no regex backtracking)', () => {
    const crafted = `a@${'.'.repeat(50_000)}@`;
    const start = performance.now();
    expect(encode(hub({ user: crafted })).metadata).toEqual({ user_id: crafted });
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
