/**
 * Properties across every conversion pair (fast-check):
 *  1. a valid conversation written in any client dialect converts for every target of every other
 *     dialect (each provider's own options), and the tool-call ids and tool-result ids reach the
 *     upstream unchanged and in order — results right where their calls were answered — in a body
 *     the upstream accepts (no envelope, no reasoning as visible text, its dialect's shape rules);
 *  2. valid-ish requests (a valid one with a random part replaced, removed or retyped) never make
 *     decode → encode throw anything but a clean ProtocolError.
 * PAIR_RUNS=2000 runs a deeper search than the default.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../../src/protocols/hub.js';
import { onlyProtocolErrors, type Loose } from '../shared/helpers.js';
import { conversation, expectedIds, idsIn, REASONING_MARK, render, resultsFollowCalls, upstreamProblems } from './conversation.js';
import { convertRequest, PAIRS } from './harness.js';

/** Targets per upstream dialect, with their adapters' own encode options. */
const TARGETS: Readonly<Record<Dialect, readonly string[]>> = {
  chat: ['openrouter/anthropic/claude-sonnet-4.5', 'gemini/gemini-3-pro-preview', 'local/qwen3:8b', 'custom-a/any-model'],
  messages: ['anthropic/claude-sonnet-4-5', 'anthropic/claude-opus-4-7', 'custom-b/any-model'],
  responses: ['openai/gpt-5.2'],
};

const RUNS = Number(process.env.PAIR_RUNS ?? 120);

describe('tool-call and tool-result ids survive every pair, in order, in a well-formed upstream body', () => {
  for (const { client, upstream, dir } of PAIRS) {
    it(dir, () => {
      fc.assert(
        fc.property(conversation, fc.constantFrom(...TARGETS[upstream]), (conv, target) => {
          const body = convertRequest(client, upstream, target, render(conv, client));
          expect(idsIn(body, upstream)).toEqual(expectedIds(conv));
          expect(resultsFollowCalls(body, upstream)).toBe(true);
          expect(upstreamProblems(body, upstream)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('the checks used above', () => {
  it('name what an upstream would reject', () => {
    const user = { role: 'user', content: [{ type: 'text', text: 'q' }] };
    expect(upstreamProblems({ max_tokens: 1, messages: [user, user] }, 'messages')).toEqual(['two turns of the same role in a row']);
    expect(upstreamProblems({ max_tokens: 1, messages: [user, { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'thinking', thinking: '', signature: 's' }] }] }, 'messages')).toEqual(['thinking block not first in an assistant turn']);
    expect(upstreamProblems({ messages: [{ role: 'assistant', content: `${REASONING_MARK}x` }] }, 'chat')).toEqual(['reasoning text became visible text']);
    expect(upstreamProblems({ input: [{ type: 'reasoning', encrypted_content: 'svcp1.abc' }] }, 'responses')).toEqual(['an envelope reached the upstream', 'reasoning item not followed by its output item']);
  });

  it('catch results out of order, after other content, or with a message in between', () => {
    const use = (id: string) => ({ type: 'tool_use', id });
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id });
    expect(resultsFollowCalls({ messages: [{ role: 'assistant', content: [use('a'), use('b')] }, { role: 'user', content: [result('b'), result('a')] }] }, 'messages')).toBe(false);
    expect(resultsFollowCalls({ messages: [{ role: 'assistant', content: [use('a')] }, { role: 'user', content: [{ type: 'text', text: 'x' }, result('a')] }] }, 'messages')).toBe(false);
    expect(resultsFollowCalls({ messages: [{ role: 'assistant', tool_calls: [{ id: 'a' }] }, { role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'a' }] }, 'chat')).toBe(false);
    expect(resultsFollowCalls({ input: [{ type: 'function_call', call_id: 'a' }, { type: 'message' }, { type: 'function_call_output', call_id: 'a' }] }, 'responses')).toBe(false);
    expect(resultsFollowCalls({ messages: [{ role: 'assistant', content: [use('a')] }, { role: 'user', content: [result('a'), { type: 'text', text: 'x' }] }] }, 'messages')).toBe(true);
  });
});

/** Every path (list of keys) into a JSON value. */
function paths(v: unknown, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(prefix);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...prefix, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out);
  return out;
}

type Edit = { op: 'replace'; value: unknown } | { op: 'delete' } | { op: 'wrap' };

function edit(root: Loose, path: Array<string | number>, e: Edit): Loose {
  if (path.length === 0) return e.op === 'replace' ? e.value : e.op === 'wrap' ? [root] : undefined;
  const copy = structuredClone(root);
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  const last = path[path.length - 1]!;
  if (e.op === 'delete') {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = e.op === 'wrap' ? [node[last]] : e.value;
  return copy;
}

const junk = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, '', 0, -1, 1e308, true, [], {}, 'svcp1.', 'svcp1.eyJraW5kIjoib3BlbmFpIn0', '__proto__', 'data:image/png;base64,', { type: 'text' }, { type: 'tool_use' }, { type: 'ephemeral' }),
);
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  junk.map((value) => ({ op: 'replace' as const, value })),
  fc.constant({ op: 'delete' as const }),
  fc.constant({ op: 'wrap' as const }),
);

describe('valid-ish requests never make a pair throw anything but a ProtocolError', () => {
  for (const { client, upstream, dir } of PAIRS) {
    it(dir, () => {
      fc.assert(
        fc.property(conversation, fc.nat(), fc.array(editArb, { minLength: 1, maxLength: 3 }), fc.constantFrom(...TARGETS[upstream]), (conv, pick, edits, target) => {
          let body: Loose = render(conv, client);
          for (const [i, e] of edits.entries()) {
            const all = paths(body);
            body = edit(body, all[(pick + i * 7919) % all.length]!, e);
          }
          onlyProtocolErrors(() => convertRequest(client, upstream, target, body));
        }),
        { numRuns: RUNS * 2 },
      );
    });
  }
});
