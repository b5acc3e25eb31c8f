/**
 * Reasoning kept for a client that drops it (reasoning-continuity.ts, keyed by call id) when the
 * model numbers its calls per turn: a Messages-format endpoint serving such a model (Kimi's own
 * Anthropic-compatible API) answers `list_dir_0` in each turn, with signed thinking. The next
 * request names the second call `list_dir_0_2` in the hub (call-id-reuse.ts); each turn must get
 * its own thinking back, not the latest turn's under the shared id.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { FunctionCallItem, ReasoningItem } from '../../src/protocols/hub.js';
import { ReasoningCache } from '../../src/routing/reasoning-cache.js';
import { rememberOutput } from '../../src/routing/reasoning-continuity.js';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness();
const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: 'function', function: { name: 'list_dir', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }];
const answer = (thought: string, path: string): Reply => ({
  kind: 'turn',
  turn: { reasoning: { text: thought }, toolCalls: [{ id: 'list_dir_0', name: 'list_dir', arguments: { path } }] },
});

interface SentBlock {
  type: string;
  thinking?: string;
}

describe('a Chat client on an endpoint that repeats its call ids, with thinking', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'whole'}: each replayed turn gets back the thinking it was answered with`, async () => {
      const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
      const ask = async (messages: OpenAI.Chat.ChatCompletionMessageParam[]): Promise<OpenAI.Chat.ChatCompletionMessage> => {
        const params = { model: 'cb/claude-sonnet-4-5', reasoning_effort: 'high' as const, tools, messages };
        const done = stream ? await client.chat.completions.stream(params).finalChatCompletion() : await client.chat.completions.create(params);
        return done.choices[0]!.message;
      };
      // a typical client keeps only role, content and tool_calls of an assistant message
      const replay = (m: OpenAI.Chat.ChatCompletionMessage, result: string): OpenAI.Chat.ChatCompletionMessageParam[] => [
        { role: 'assistant', content: null, tool_calls: m.tool_calls! },
        { role: 'tool', tool_call_id: m.tool_calls![0]!.id, content: result },
      ];
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'List . then /.' }];
      t.h.mocks.cb.next(answer('First the current folder.', '.'));
      history.push(...replay(await ask(history), 'listing of .'));
      t.h.mocks.cb.next(answer('Now the root.', '/'));
      const second = await ask(history);
      expect(second.tool_calls![0]!.id).toBe('list_dir_0');
      history.push(...replay(second, 'listing of /'));

      const last = await ask(history);
      expect(last.content).toBe('Tool said: listing of /');
      const sent = t.h.mocks.cb.lastGeneration().body as { messages: Array<{ role: string; content: SentBlock[] | string }> };
      const thoughts = sent.messages.filter((m) => m.role === 'assistant').map((m) => (m.content as SentBlock[]).find((b) => b.type === 'thinking')?.thinking);
      expect(thoughts).toEqual(['First the current folder.', 'Now the root.']);
    });
  }
});

describe('rememberOutput with the conversation’s call ids', () => {
  const signed: ReasoningItem = { type: 'reasoning', text: 'Now the root.', origin: { kind: 'anthropic', signature: 'sig' } };
  const call = (callId: string): FunctionCallItem => ({ type: 'function_call', callId, name: 'list_dir', arguments: '{}' });

  it('keeps the proof under the id the next request gives the call', () => {
    const cache = new ReasoningCache().scope('k');
    rememberOutput(cache, 'cb', [signed, call('list_dir_0'), call('other')], true, (id) => id === 'list_dir_0');
    expect(cache.get('list_dir_0_2')?.reasoning).toEqual([signed]);
    expect(cache.get('other')?.reasoning).toEqual([signed]);
    expect(cache.get('list_dir_0')).toBeUndefined();
  });

  it('does not gather the conversation’s ids for an answer with nothing to keep', () => {
    let asked = 0;
    rememberOutput(new ReasoningCache().scope('k'), 'cb', [call('list_dir_0')], true, () => (asked++, false));
    expect(asked).toBe(0);
  });
});
