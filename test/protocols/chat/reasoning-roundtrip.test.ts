/**
 * Regression: "thinking signature lost across turns". Reasoning a Chat client received (streamed
 * or not) and sends back on its assistant message must decode to the same proof of origin, however
 * the client accumulated the streamed reasoning fields.
 */
import { describe, expect, it } from 'vitest';
import type { HubEvent, HubResponse, ReasoningItem } from '../../../src/protocols/hub.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { sseData as parseSse } from '../shared/helpers.js';

type Json = Record<string, unknown>;

const SIGNED: ReasoningItem[] = [
  { type: 'reasoning', text: 'Step one. Step two.', origin: { kind: 'anthropic', signature: 'EqQBsig==' } },
  { type: 'reasoning', text: '', origin: { kind: 'anthropic_redacted', data: 'EmwKredacted' } },
  { type: 'reasoning', text: '**Summary**', origin: { kind: 'openai', id: 'rs_1', encryptedContent: 'gAAAA' } },
];

function requestWith(assistant: Json): Json {
  return {
    model: 'anthropic/claude',
    messages: [
      { role: 'user', content: 'q' },
      assistant,
      { role: 'tool', tool_call_id: 'toolu_1', content: 'result' },
    ],
  };
}

function reasoningOf(body: Json): ReasoningItem[] {
  return chatCodec.decodeRequest(body).items.filter((i): i is ReasoningItem => i.type === 'reasoning');
}

/** Hub events a Messages/Responses upstream decoder produces for the signed items + a tool call. */
function eventsFor(items: ReasoningItem[], pieces: (text: string) => string[]): HubEvent[] {
  const events: HubEvent[] = [{ type: 'start', id: 'msg_1' }];
  items.forEach((item, index) => {
    // Like the Messages decoder: redacted origin known at start, others only at the end.
    events.push({ type: 'block_start', index, block: item.origin.kind === 'anthropic_redacted' ? { type: 'reasoning', origin: item.origin } : { type: 'reasoning' } });
    for (const p of pieces(item.text)) events.push({ type: 'reasoning_delta', index, text: p });
    if (item.origin.kind !== 'anthropic_redacted') events.push({ type: 'reasoning_origin', index, origin: item.origin });
    events.push({ type: 'block_stop', index });
  });
  const n = items.length;
  events.push({ type: 'block_start', index: n, block: { type: 'function_call', callId: 'toolu_1', name: 'f', thoughtSignature: 'tsig' } });
  events.push({ type: 'arguments_delta', index: n, json: '{"a":1}' });
  events.push({ type: 'block_stop', index: n });
  events.push({ type: 'finish', stopReason: 'tool_use' });
  return events;
}

interface Accumulated {
  reasoningContent: string;
  detailsVerbatim: Json[];
  detailsMerged: Json[];
  thinkingBlocks: Json[];
  toolCalls: Json[];
}

/** What clients do with the stream: collect every detail entry, or merge entries by index (and LiteLLM blocks). */
function accumulate(sse: string): Accumulated {
  const acc: Accumulated = { reasoningContent: '', detailsVerbatim: [], detailsMerged: [], thinkingBlocks: [], toolCalls: [] };
  const merged = new Map<number, Json>();
  for (const chunk of parseSse(sse)) {
    if (chunk === '[DONE]') continue;
    const delta = ((chunk as Json).choices as Json[])[0]?.delta as Json | undefined;
    if (!delta) continue;
    acc.reasoningContent += (delta.reasoning_content as string | undefined) ?? '';
    for (const d of (delta.reasoning_details as Json[] | undefined) ?? []) {
      acc.detailsVerbatim.push(d);
      const prev = merged.get(d.index as number);
      if (!prev) merged.set(d.index as number, { ...d });
      else {
        for (const [k, v] of Object.entries(d)) {
          if (k === 'text' || k === 'summary') prev[k] = String(prev[k] ?? '') + String(v);
          else if (v !== '' && v !== null) prev[k] = v;
        }
      }
    }
    for (const b of (delta.thinking_blocks as Json[] | undefined) ?? []) {
      // LiteLLM: pieces of one block concatenate; a signature-only piece closes it.
      const last = acc.thinkingBlocks.at(-1);
      if (b.type === 'thinking' && last && last.type === 'thinking' && !last.signature) {
        last.thinking = String(last.thinking) + String(b.thinking);
        if (b.signature) last.signature = b.signature;
      } else acc.thinkingBlocks.push({ ...b });
    }
    for (const tc of (delta.tool_calls as Json[] | undefined) ?? []) {
      const i = tc.index as number;
      const fn = (tc.function ?? {}) as Json;
      if (!acc.toolCalls[i]) acc.toolCalls[i] = { id: tc.id, type: 'function', function: { name: fn.name, arguments: '' }, ...(tc.extra_content ? { extra_content: tc.extra_content } : {}) };
      const target = acc.toolCalls[i]!.function as Json;
      target.arguments = String(target.arguments) + String(fn.arguments ?? '');
    }
  }
  acc.detailsMerged = [...merged.values()];
  return acc;
}

describe('reasoning survives a Chat client round trip', () => {
  it('non-streamed: reasoning_details sent back decode to the same origins and texts', () => {
    const res: HubResponse = { id: 'msg_1', model: 'm', output: [...SIGNED, { type: 'function_call', callId: 'toolu_1', name: 'f', arguments: '{}' }], stopReason: 'tool_use' };
    const body = chatCodec.encodeResponse(res, { model: 'a/b', created: 1 }) as { choices: Array<{ message: Json }> };
    expect(reasoningOf(requestWith(body.choices[0]!.message))).toEqual(SIGNED);
  });

  it('non-streamed: a client that keeps only thinking_blocks still round-trips Anthropic proof', () => {
    const res: HubResponse = { id: 'msg_1', model: 'm', output: [...SIGNED.slice(0, 2), { type: 'function_call', callId: 'toolu_1', name: 'f', arguments: '{}' }], stopReason: 'tool_use' };
    const msg = (chatCodec.encodeResponse(res, { model: 'a/b' }) as { choices: Array<{ message: Json }> }).choices[0]!.message;
    const { reasoning_details: _drop, ...rest } = msg;
    expect(reasoningOf(requestWith(rest))).toEqual(SIGNED.slice(0, 2));
  });

  it('non-streamed: a client that keeps only reasoning_content sends unsigned text (dropped by signed targets, never turned into answer text)', () => {
    const items = reasoningOf(requestWith({ role: 'assistant', content: null, reasoning_content: 'just text', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }));
    expect(items).toEqual([{ type: 'reasoning', text: 'just text', origin: { kind: 'unsigned' } }]);
  });

  for (const [label, pieces] of [
    ['one piece per block', (t: string) => (t ? [t] : [])],
    ['character by character', (t: string) => [...t]],
  ] as const) {
    it(`streamed (${label}): verbatim-collected and index-merged details both decode to the same origins`, () => {
      const enc = chatCodec.createStreamEncoder({ model: 'a/b', created: 1 });
      const sse = eventsFor(SIGNED, pieces).map((e) => enc.encode(e)).join('');
      const acc = accumulate(sse);
      expect(acc.reasoningContent).toBe('Step one. Step two.\n\n**Summary**');
      const toolCalls = acc.toolCalls;
      expect(toolCalls).toEqual([{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' }, extra_content: { google: { thought_signature: 'tsig' } } }]);
      for (const details of [acc.detailsVerbatim, acc.detailsMerged]) {
        const assistant = { role: 'assistant', content: null, reasoning_content: acc.reasoningContent, reasoning_details: details, tool_calls: toolCalls };
        expect(reasoningOf(requestWith(assistant))).toEqual(SIGNED);
        const call = chatCodec.decodeRequest(requestWith(assistant)).items.find((i) => i.type === 'function_call');
        expect(call).toMatchObject({ callId: 'toolu_1', thoughtSignature: 'tsig', arguments: '{"a":1}' });
      }
    });
  }

  it('streamed: LiteLLM-style thinking_blocks accumulate to signed Anthropic blocks', () => {
    const enc = chatCodec.createStreamEncoder({ model: 'a/b', created: 1 });
    const sse = eventsFor(SIGNED.slice(0, 2), (t) => [...t]).map((e) => enc.encode(e)).join('');
    const acc = accumulate(sse);
    expect(acc.thinkingBlocks).toEqual([
      { type: 'thinking', thinking: 'Step one. Step two.', signature: 'EqQBsig==' },
      { type: 'redacted_thinking', data: 'EmwKredacted' },
    ]);
    const assistant = { role: 'assistant', content: null, thinking_blocks: acc.thinkingBlocks, tool_calls: acc.toolCalls };
    expect(reasoningOf(requestWith(assistant))).toEqual(SIGNED.slice(0, 2));
  });

  it('reasoning never becomes answer text on the way to a Chat upstream that cannot take it back', () => {
    const hub = chatCodec.decodeRequest(requestWith({ role: 'assistant', content: 'visible', reasoning_content: 'secret thoughts', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }));
    const body = JSON.stringify(chatCodec.encodeRequest(hub, { replayReasoning: [] }));
    expect(body).not.toContain('secret thoughts');
    expect(body).toContain('visible');
  });
});
