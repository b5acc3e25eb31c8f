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
import { mutateAll, mutation, onlyProtocolErrors } from '../shared/helpers.js';
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

describe('valid-ish requests never make a pair throw anything but a ProtocolError', () => {
  for (const { client, upstream, dir } of PAIRS) {
    it(dir, () => {
      fc.assert(
        fc.property(conversation, fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.constantFrom(...TARGETS[upstream]), (conv, pick, edits, target) => {
          const body = mutateAll(render(conv, client), pick, edits);
          onlyProtocolErrors(() => convertRequest(client, upstream, target, body));
        }),
        { numRuns: RUNS * 2 },
      );
    });
  }
});
