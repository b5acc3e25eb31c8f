/** A Messages body's repeated tool_use ids, renamed on Anthropic's refusal (unique-tool-use-ids.ts). */
import { describe, expect, it } from 'vitest';
import { trackWrites } from '../../src/routing/json-splice.js';
import { refusesRepeatedToolUseIds, uniqueToolUseIds } from '../../src/routing/unique-tool-use-ids.js';

describe('refusesRepeatedToolUseIds', () => {
  it.each([
    ['messages.3.content.0: `tool_use` ids must be unique', true],
    // as Claude Code users saw it in 2026 (anthropics/claude-code#28515): no backticks
    ['messages.43.content.2: tool_use ids must be unique', true],
    ['messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1', false],
  ])('%s: %s', (message, expected) => {
    expect(refusesRepeatedToolUseIds(message)).toBe(expected);
  });
});

describe('uniqueToolUseIds', () => {
  it('each repeat gets the next free suffix, each result its call’s; a history without repeats is left as it is', () => {
    type Block = { type: string; id?: string; tool_use_id?: string; name?: string; input?: object; content?: string };
    const turn = (id: string): Array<{ role: string; content: string | Block[] }> => [
      { role: 'assistant', content: [{ type: 'tool_use', id, name: 'list_dir', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] },
    ];
    const body = { messages: [{ role: 'user', content: 'go' as string | Block[] }, ...turn('list_dir_0'), ...turn('list_dir_0'), ...turn('list_dir_0')] };
    expect(uniqueToolUseIds(body)).toBe(true);
    const blocks = body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
    expect(blocks.map((b) => b.id ?? b.tool_use_id)).toEqual(['list_dir_0', 'list_dir_0', 'list_dir_0_2', 'list_dir_0_2', 'list_dir_0_3', 'list_dir_0_3']);

    const unique = { messages: [...turn('a'), ...turn('b')] };
    const before = structuredClone(unique);
    // unwritten, too: the member's bytes are copied as the client sent them (json-splice.ts)
    const { proxy, dirty } = trackWrites(unique);
    expect(uniqueToolUseIds(proxy)).toBe(false);
    expect(unique).toEqual(before);
    expect(dirty.size).toBe(0);
  });
});
