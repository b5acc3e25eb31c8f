/**
 * The Chat stream encoder, checked by parsing its output back with SseParser: OpenAI's chunk
 * sequence rules hold for every upstream stream fixture, and the client rebuilds exactly the
 * text and tool calls the hub events carried.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { sseData as parseSse, textBlockEvents } from '../shared/helpers.js';
import { decodePieces, FIXTURES } from './helpers.js';

type Json = Record<string, unknown>;
const DIR = join(FIXTURES, 'streams');
const fixtures = readdirSync(DIR).filter((f) => f.endsWith('.sse')).sort();

function encodeAll(events: HubEvent[], includeUsage: boolean): string {
  const enc = chatCodec.createStreamEncoder({ model: 'p/m', created: 10, includeUsage });
  return events.map((e) => enc.encode(e)).join('');
}

describe('chat stream encoder output for every upstream fixture', () => {
  for (const file of fixtures) {
    for (const includeUsage of [false, true]) {
      it(`${file} (include_usage ${includeUsage}) follows the Chat chunk rules`, () => {
        const events = decodePieces([readFileSync(join(DIR, file))]);
        const chunks = parseSse(encodeAll(events, includeUsage));
        const failed = events.some((e) => e.type === 'error');
        const last = chunks.at(-1);
        if (failed) {
          expect(Object.keys(last as Json)).toEqual(['error']);
          expect(chunks).not.toContain('[DONE]');
        } else {
          expect(last).toBe('[DONE]');
        }
        const objects = chunks.filter((c): c is Json => typeof c === 'object' && c !== null && !('error' in c));
        // Normal chunks never carry an error key; all share id/created/model.
        expect(new Set(objects.map((c) => `${String(c.id)}|${String(c.created)}|${String(c.model)}`)).size).toBe(1);
        expect(String(objects[0]!.id)).toMatch(/^chatcmpl-/);
        const withChoices = objects.filter((c) => (c.choices as unknown[]).length > 0);
        expect((withChoices[0]!.choices as Json[])[0]!.delta).toEqual({ role: 'assistant', content: '' });
        const usageChunks = objects.filter((c) => (c.choices as unknown[]).length === 0);
        expect(usageChunks).toHaveLength(includeUsage && !failed ? 1 : 0);
        if (usageChunks.length) expect(objects.at(-1)).toBe(usageChunks[0]);
        for (const c of objects) expect('usage' in c).toBe(includeUsage);

        // Rebuild what the hub said and compare.
        let text = '';
        const args = new Map<number, string>();
        const seenTool = new Set<number>();
        const finishes: unknown[] = [];
        for (const c of withChoices) {
          const choice = (c.choices as Json[])[0]!;
          if (choice.finish_reason) finishes.push(choice.finish_reason);
          const delta = choice.delta as Json;
          text += (delta.content as string | undefined) ?? '';
          for (const tc of (delta.tool_calls as Json[] | undefined) ?? []) {
            const index = tc.index as number;
            const fn = tc.function as Json;
            if (!seenTool.has(index)) {
              expect(tc).toMatchObject({ id: expect.any(String), type: 'function', function: { name: expect.any(String), arguments: '' } });
              expect(index).toBe(seenTool.size);
              seenTool.add(index);
            } else {
              expect(Object.keys(tc).sort()).toEqual(['function', 'index']);
              expect(Object.keys(fn)).toEqual(['arguments']);
            }
            args.set(index, (args.get(index) ?? '') + String(fn.arguments));
          }
        }
        expect(finishes).toHaveLength(failed ? 0 : 1);
        const hubText = events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
        expect(text).toBe(hubText);
        const hubCalls = events.filter((e) => e.type === 'block_start' && e.block.type === 'function_call').map((e) => (e as { index: number }).index);
        expect([...args.values()]).toEqual(hubCalls.map((i) => events.map((e) => (e.type === 'arguments_delta' && e.index === i ? e.json : '')).join('')));
      });
    }
  }
});

describe('chat stream encoder details', () => {
  const detailsOf = (sse: string): Json[][] =>
    parseSse(sse).flatMap((c) => {
      const d = typeof c === 'object' ? (((c as Json).choices as Json[])[0]?.delta as Json | undefined)?.reasoning_details : undefined;
      return d ? [d as Json[]] : [];
    });

  it('a proof of origin that arrives after its block stopped joins the run, whole, on the block detail index', () => {
    const sse = encodeAll(
      [
        { type: 'start' },
        { type: 'block_start', index: 0, block: { type: 'reasoning' } },
        { type: 'reasoning_delta', index: 0, text: 'a' },
        { type: 'reasoning_delta', index: 0, text: 'b' },
        { type: 'block_stop', index: 0 },
        { type: 'reasoning_origin', index: 0, origin: { kind: 'anthropic', signature: 'late' } },
        { type: 'finish', stopReason: 'end_turn' },
      ],
      false,
    );
    expect(detailsOf(sse)).toEqual([[{ type: 'reasoning.text', text: 'ab', signature: 'late', format: 'anthropic-claude-v1', index: 0 }]]);
  });

  it('a proof that arrives after its run was written goes out on its own', () => {
    const sse = encodeAll(
      [
        { type: 'block_start', index: 0, block: { type: 'reasoning' } },
        { type: 'reasoning_delta', index: 0, text: 'a' },
        { type: 'block_start', index: 1, block: { type: 'text' } },
        { type: 'text_delta', index: 1, text: 'answer' },
        { type: 'reasoning_origin', index: 0, origin: { kind: 'anthropic', signature: 'very-late' } },
        { type: 'finish', stopReason: 'end_turn' },
      ],
      false,
    );
    expect(detailsOf(sse)).toEqual([[{ type: 'reasoning.text', text: 'a', signature: 'very-late', format: 'anthropic-claude-v1', index: 0 }]]);
  });

  it('the proofs of a run of reasoning blocks go out in one chunk, the last reasoning_details delta before the answer', () => {
    const sse = encodeAll(
      [
        { type: 'block_start', index: 0, block: { type: 'reasoning' } },
        { type: 'reasoning_delta', index: 0, text: 'one' },
        { type: 'reasoning_origin', index: 0, origin: { kind: 'anthropic', signature: 's1' } },
        { type: 'block_stop', index: 0 },
        { type: 'block_start', index: 1, block: { type: 'reasoning', origin: { kind: 'anthropic_redacted', data: 'r' } } },
        { type: 'block_stop', index: 1 },
        { type: 'block_start', index: 2, block: { type: 'function_call', callId: 'c', name: 'f' } },
        { type: 'block_stop', index: 2 },
        { type: 'finish', stopReason: 'tool_use' },
      ],
      false,
    );
    expect(detailsOf(sse)).toEqual([
      [
        { type: 'reasoning.text', text: 'one', signature: 's1', format: 'anthropic-claude-v1', index: 0 },
        { type: 'reasoning.encrypted', data: 'r', format: 'anthropic-claude-v1', index: 1 },
      ],
    ]);
  });

  it('a reasoning block never stopped gets its proof before the finish chunk', () => {
    const sse = encodeAll(
      [
        { type: 'block_start', index: 0, block: { type: 'reasoning', origin: { kind: 'anthropic_redacted', data: 'd' } } },
        { type: 'finish', stopReason: 'end_turn' },
      ],
      false,
    );
    const chunks = parseSse(sse) as Array<Json | string>;
    expect(((chunks[1] as Json).choices as Json[])[0]!.delta).toEqual({
      reasoning_details: [{ type: 'reasoning.encrypted', data: 'd', format: 'anthropic-claude-v1', index: 0 }],
      thinking_blocks: [{ type: 'redacted_thinking', data: 'd' }],
    });
    expect(((chunks[2] as Json).choices as Json[])[0]!.finish_reason).toBe('stop');
  });

  it('an error before anything else is a lone error line', () => {
    const sse = encodeAll([{ type: 'error', error: { status: 401, code: 'upstream_error', message: 'bad key' } }], true);
    expect(parseSse(sse)).toEqual([{ error: { message: 'bad key', type: 'authentication_error', param: null, code: 'upstream_error' } }]);
  });

  it('writes nothing after the finish', () => {
    const enc = chatCodec.createStreamEncoder({ model: 'p/m', created: 1 });
    enc.encode({ type: 'finish', stopReason: 'end_turn' });
    expect(enc.encode({ type: 'text_delta', index: 0, text: 'late' })).toBe('');
    expect(enc.encode({ type: 'error', error: { status: 500, code: 'x', message: 'y' } })).toBe('');
  });
});

describe('chat stream encoder: the pages a text cites', () => {
  const page = { url: 'https://example.com/a', title: 'A page' };
  const deltasOf = (sse: string) =>
    parseSse(sse)
      .filter((c): c is Json => typeof c === 'object' && c !== null)
      .map((c) => ((c.choices as Json[] | undefined)?.[0]?.delta ?? {}) as Json);

  it('each text block’s citations are a delta of annotations when it stops, over its stretch of the content; a cited stretch within it counts from its start', () => {
    const events: HubEvent[] = [
      { type: 'start', id: 'u1' },
      ...textBlockEvents([
        { text: 'It is ' },
        { text: 'so 🌍', citation: page },
        { text: ', says B.', citation: { url: 'https://example.org/b', start: 7, end: 8 }, citeAfter: true },
      ]),
      { type: 'finish', stopReason: 'end_turn' },
    ];
    const deltas = deltasOf(encodeAll(events, false));
    const content = deltas.map((d) => (typeof d.content === 'string' ? d.content : '')).join('');
    expect(content).toBe('It is so 🌍, says B.');
    const annotations = deltas.filter((d) => d.annotations).map((d) => d.annotations);
    expect(annotations).toEqual([
      [{ type: 'url_citation', url_citation: { ...page, start_index: 6, end_index: 11 } }],
      [{ type: 'url_citation', url_citation: { url: 'https://example.org/b', title: 'https://example.org/b', start_index: 18, end_index: 19 } }],
    ]);
    expect(content.slice(6, 11)).toBe('so 🌍');
    expect(content.slice(18, 19)).toBe('B');
  });

  it('writes nothing for a text that cites nothing', () => {
    const sse = encodeAll(
      [
        { type: 'start', id: 'u1' },
        { type: 'block_start', index: 0, block: { type: 'text' } },
        { type: 'text_delta', index: 0, text: 'plain' },
        { type: 'block_stop', index: 0 },
        { type: 'finish', stopReason: 'end_turn' },
      ],
      false,
    );
    expect(sse).not.toContain('annotations');
  });
});

describe('a call of a tool without parameters', () => {
  const call = (extra: HubEvent[], freeform?: true): HubEvent[] => [
    { type: 'start', id: 'msg_1' },
    { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'toolu_1', name: 'now', ...(freeform ? { freeform } : {}) } },
    ...extra,
    { type: 'block_stop', index: 0 },
    { type: 'finish', stopReason: 'tool_use' },
  ];
  const argumentsOf = (events: HubEvent[]): string =>
    parseSse(encodeAll(events, false))
      .filter((c): c is Json => typeof c === 'object' && c !== null)
      .flatMap((c) => ((c.choices as Json[])[0]?.delta as Json | undefined)?.tool_calls as Json[] | undefined ?? [])
      .map((tc) => (tc.function as Json).arguments as string)
      .join('');

  it('streams `{}` (what a whole answer gives), with no argument delta or an empty one', () => {
    expect(argumentsOf(call([]))).toBe('{}');
    expect(argumentsOf(call([{ type: 'arguments_delta', index: 0, json: '' }]))).toBe('{}');
  });

  it('leaves arguments that came, and a freeform call’s empty input, as they are', () => {
    expect(argumentsOf(call([{ type: 'arguments_delta', index: 0, json: '{"a":' }, { type: 'arguments_delta', index: 0, json: '1}' }]))).toBe('{"a":1}');
    expect(argumentsOf(call([], true))).toBe('');
  });
});
