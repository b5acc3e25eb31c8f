/**
 * A Messages session begun on a model whose tool ids break Anthropic's pattern (Kimi's
 * `functions.list_dir:0`, behind a Messages endpoint or converted from Chat: passed through, the
 * client keeps them as they came), then taken to `anthropic/…` with /model: passed through too,
 * so Anthropic sees the history as the client sent it and refuses it with a 400. The body goes once
 * more with the ids mapped as the Messages encoder maps them (messages/ids.ts), and the pair
 * (service key, target) remembers it: the session's next turns go mapped at once.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
const tools: Anthropic.Tool[] = [{ name: 'list_dir', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }];

type Block = { type: string; id?: string; tool_use_id?: string };

/** A history as Claude Code keeps it after Kimi's turns: Kimi numbers its calls per turn. */
function kimiHistory(paths: string[]): Anthropic.MessageParam[] {
  const history: Anthropic.MessageParam[] = [{ role: 'user', content: `List ${paths.join(' then ')}.` }];
  for (const path of paths) {
    history.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'functions.list_dir:0', name: 'list_dir', input: { path } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'functions.list_dir:0', content: `listing of ${path}` }] },
    );
  }
  return history;
}

function sentBlocks(): Block[] {
  const messages = t.h.mocks.anthropic.lastGeneration().body.messages as Array<{ content: Block[] | string }>;
  return messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
}

const ids = (blocks: Block[], type: string): Array<string | undefined> => blocks.filter((b) => b.type === type).map((b) => b.id ?? b.tool_use_id);

describe('a Messages session with tool ids outside Anthropic’s pattern, taken on to anthropic/… (passed through)', () => {
  // a target per test: what one learns for its (service key, target) pair is not the other's
  for (const [stream, model] of [[false, 'anthropic/claude-sonnet-4-5'], [true, 'anthropic/claude-opus-4-7']] as const) {
    it(`${stream ? 'streamed' : 'whole'}: answered; each call and its result go under one valid id, unique, the same each turn`, async () => {
      const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
      const ask = async (messages: Anthropic.MessageParam[]): Promise<Anthropic.Message> => {
        const params = { model, max_tokens: 1000, tools, messages };
        return stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      };
      const generations = (): number => t.h.mocks.anthropic.generations().length;
      const history = kimiHistory(['.', '/']);
      const first = await ask(history);
      expect(first.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: listing of /' })]);
      // one refusal, then the body with the ids mapped and the repeat renamed in the same go
      expect(generations()).toBe(2);
      const uses = ids(sentBlocks(), 'tool_use');
      for (const id of uses) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(new Set(uses).size).toBe(2);
      expect(ids(sentBlocks(), 'tool_result')).toEqual(uses);
      // the client's own history is not touched
      expect((history[1]!.content as Block[])[0]!.id).toBe('functions.list_dir:0');

      // the next turn goes mapped at once, under the same ids (a cached prefix stays the same)
      history.push({ role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'Thanks.' });
      await ask(history);
      expect(generations()).toBe(3);
      expect(ids(sentBlocks(), 'tool_use')).toEqual(uses);
      expect(ids(sentBlocks(), 'tool_result')).toEqual(uses);

      // a request that did not need it makes the pair forget: Anthropic is asked as the client asks
      await ask([{ role: 'user', content: 'Hello.' }]);
      expect(generations()).toBe(4);
      await ask(history);
      expect(generations()).toBe(6);
    });
  }
});

describe('a Messages session whose tool ids repeat (Kimi’s `list_dir_0` each turn), taken on to anthropic/…', () => {
  it('the renaming Anthropic’s first refusal asked is applied up front on the next turn', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const model = 'anthropic/claude-haiku-4-5';
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: 'List . then /.' }];
    for (const path of ['.', '/']) {
      history.push(
        { role: 'assistant', content: [{ type: 'tool_use', id: 'list_dir_0', name: 'list_dir', input: { path } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'list_dir_0', content: `listing of ${path}` }] },
      );
    }
    const first = await client.messages.create({ model, max_tokens: 1000, tools, messages: history });
    expect(t.h.mocks.anthropic.generations().length).toBe(2);
    history.push({ role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'Thanks.' });
    await client.messages.create({ model, max_tokens: 1000, tools, messages: history });
    expect(t.h.mocks.anthropic.generations().length).toBe(3);
    expect(ids(sentBlocks(), 'tool_use')).toEqual(['list_dir_0', 'list_dir_0_2']);
    expect(ids(sentBlocks(), 'tool_result')).toEqual(['list_dir_0', 'list_dir_0_2']);
  });
});

describe('count_tokens of such a session on anthropic/…', () => {
  it('counted: the ids go mapped and unique, as a generation sends them', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const counted = await client.messages.countTokens({ model: 'anthropic/claude-sonnet-4-5', tools, messages: kimiHistory(['.', '/']) });
    expect(counted.input_tokens).toBeGreaterThan(0);
    const sent = t.h.mocks.anthropic.requests.at(-1)!.body as { messages: Array<{ content: Block[] | string }> };
    const blocks = sent.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    const uses = ids(blocks, 'tool_use');
    expect(new Set(uses).size).toBe(2);
    for (const id of uses) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(ids(blocks, 'tool_result')).toEqual(uses);
  });
});

describe('the log of such a session on anthropic/…', () => {
  it('names both the refused attempt and the one that went mapped, for a generation and a count', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    // a target no test before asked: its pair has learnt nothing yet
    const model = 'anthropic/claude-3-5-haiku-latest';
    await client.messages.create({ model, max_tokens: 1000, tools, messages: kimiHistory(['.']) });
    await client.messages.countTokens({ model: 'anthropic/claude-opus-4-7', tools, messages: kimiHistory(['.']) });
    const [generation, count] = await t.h.waitForLogs(2);
    for (const [entry, target] of [[generation, model], [count, 'anthropic/claude-opus-4-7']] as const) {
      expect(entry).toMatchObject({ status: 200, attempts: [{ target, status: 400 }, { target, status: 200 }] });
      expect(entry!.attempts).toHaveLength(2);
    }
  });
});

describe('a revoked service key', () => {
  it('its pairs are forgotten: what its session learnt is no other request\'s', async () => {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const model = 'anthropic/claude-3-7-sonnet-latest';
    const generations = (): number => t.h.mocks.anthropic.generations().length;
    const before = generations();
    await client.messages.create({ model, max_tokens: 1000, tools, messages: kimiHistory(['.']) });
    expect(generations()).toBe(before + 2);
    expect(t.h.handler.endRevoked!(new Set())).toBe(0);
    await client.messages.create({ model, max_tokens: 1000, tools, messages: kimiHistory(['.']) });
    expect(generations()).toBe(before + 4);
  });
});
