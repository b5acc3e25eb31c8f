/** Continuing a paused turn (pause_turn): the body sent again, usage added, the next part's events joined to the answer. */
import { describe, expect, it } from 'vitest';
import type { HubEvent, HubRequest } from '../../src/protocols/hub.js';
import { addUsage, continuationBody, mayPause, PausedParts } from '../../src/routing/pause-continue.js';

const paused = [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } }];

describe('continuationBody', () => {
  it('appends the paused content as the assistant turn, the rest of the body unchanged', () => {
    const sent = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'Search.' }] };
    const body = JSON.parse(continuationBody(JSON.stringify(sent), paused)) as typeof sent;
    expect(body).toEqual({ ...sent, messages: [...sent.messages, { role: 'assistant', content: paused }] });
    expect(JSON.parse(continuationBody(Buffer.from(JSON.stringify(sent)), paused))).toEqual(body);
  });

  it('a body ending with an assistant turn has the content appended to it (a prefill: string or blocks)', () => {
    const withText = { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Sure, ' }] };
    expect(JSON.parse(continuationBody(JSON.stringify(withText), paused)).messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Sure, ' }, ...paused] });
    const withBlocks = { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ type: 'text', text: 'A' }] }] };
    expect(JSON.parse(continuationBody(JSON.stringify(withBlocks), paused)).messages).toEqual([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: [{ type: 'text', text: 'A' }, ...paused] }]);
    const empty = { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: '' }] };
    expect(JSON.parse(continuationBody(JSON.stringify(empty), paused)).messages.at(-1)).toEqual({ role: 'assistant', content: paused });
  });
});

describe('mayPause', () => {
  it('only a request offering a server tool (web search) can be paused', () => {
    const hub = (tools: HubRequest['tools']) => ({ tools }) as HubRequest;
    expect(mayPause(hub([{ type: 'web_search', name: 'web_search' }]))).toBe(true);
    expect(mayPause(hub([{ type: 'function', name: 'f', parameters: {} } as HubRequest['tools'][number]]))).toBe(false);
    expect(mayPause(hub([]))).toBe(false);
  });
});

describe('addUsage', () => {
  it('adds field by field; a field one side lacks is the other’s', () => {
    expect(addUsage({ inputTokens: 10, outputTokens: 2, cacheReadTokens: 5 }, { inputTokens: 20, outputTokens: 3, reasoningTokens: 1 })).toEqual({ inputTokens: 30, outputTokens: 5, cacheReadTokens: 5, reasoningTokens: 1 });
    expect(addUsage(undefined, { outputTokens: 3 })).toEqual({ outputTokens: 3 });
    expect(addUsage(undefined, undefined)).toEqual({});
  });
});

describe('PausedParts', () => {
  it('passes the first part as it is; the next part goes after it: indices shifted, its start dropped, usage added', () => {
    const parts = new PausedParts();
    const first: HubEvent[] = [
      { type: 'start', id: 'msg_1', usage: { inputTokens: 100 } },
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'block_stop', index: 0 },
      { type: 'block_start', index: 1, block: { type: 'text' } },
      { type: 'text_delta', index: 1, text: 'a' },
      { type: 'block_stop', index: 1 },
    ];
    expect(first.map((e) => parts.map(e))).toEqual(first);
    const finish: HubEvent = { type: 'finish', stopReason: 'pause_turn', usage: { inputTokens: 100, outputTokens: 10 } };
    expect(parts.map(finish)).toEqual(finish);
    parts.paused(finish);
    expect(parts.map({ type: 'start', id: 'msg_2' })).toBeUndefined();
    expect(parts.map({ type: 'start', id: 'msg_2', usage: { inputTokens: 200 } })).toEqual({ type: 'usage', usage: { inputTokens: 300, outputTokens: 10 } });
    expect(parts.map({ type: 'block_start', index: 0, block: { type: 'text' } })).toEqual({ type: 'block_start', index: 2, block: { type: 'text' } });
    expect(parts.map({ type: 'text_delta', index: 0, text: 'b' })).toEqual({ type: 'text_delta', index: 2, text: 'b' });
    expect(parts.map({ type: 'usage', usage: { outputTokens: 4 } })).toEqual({ type: 'usage', usage: { inputTokens: 100, outputTokens: 14 } });
    const second = parts.map({ type: 'finish', stopReason: 'pause_turn', usage: { inputTokens: 200, outputTokens: 20 } });
    expect(second).toEqual({ type: 'finish', stopReason: 'pause_turn', usage: { inputTokens: 300, outputTokens: 30 } });
    // a third part goes after both, on top of both parts' usage
    parts.paused(second as Extract<HubEvent, { type: 'finish' }>);
    expect(parts.map({ type: 'block_start', index: 0, block: { type: 'text' } })).toEqual({ type: 'block_start', index: 3, block: { type: 'text' } });
    expect(parts.map({ type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 300, outputTokens: 30 } })).toEqual({ type: 'finish', stopReason: 'end_turn', usage: { inputTokens: 600, outputTokens: 60 } });
    const error: HubEvent = { type: 'error', error: { status: 529, code: 'upstream_error', message: 'Overloaded' } };
    expect(parts.map(error)).toBe(error);
  });
});
