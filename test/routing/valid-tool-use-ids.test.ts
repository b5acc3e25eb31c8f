/** A Messages body's tool_use ids outside Anthropic's pattern, mapped on its refusal (valid-tool-use-ids.ts). */
import { describe, expect, it } from 'vitest';
import { callIdOf, toolUseId } from '../../src/protocols/messages/ids.js';
import { trackWrites } from '../../src/routing/json-splice.js';
import { refusesToolUseIdPattern, validToolUseIds } from '../../src/routing/valid-tool-use-ids.js';

type Block = { type: string; id?: string; tool_use_id?: string; name?: string; input?: object; content?: string };
type Body = { messages: Array<{ role: string; content: string | Block[] }> };

const turn = (id: string): Body['messages'] => [
  { role: 'assistant', content: [{ type: 'tool_use', id, name: 'list_dir', input: {} }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] },
];
const idsOf = (body: Body): Array<string | undefined> => body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).map((b) => b.id ?? b.tool_use_id);

describe('refusesToolUseIdPattern', () => {
  it.each([
    // as Anthropic words it (CommandCodeAI/command-code#323, BlockRunAI/ClawRouter#17)
    ["messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", true],
    ["messages.2.content.0.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'", true],
    // Anthropic's own server tool ids, and tool names: not the client's tool_use ids
    ["messages.3.content.2.server_tool_use.id: String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'", false],
    ["tools.7.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", false],
    ['messages.3.content.0: `tool_use` ids must be unique', false],
  ])('%s: %s', (message, expected) => {
    expect(refusesToolUseIdPattern(message)).toBe(expected);
  });
});

describe('validToolUseIds', () => {
  it('maps each id outside the pattern as the Messages encoder does, each result with its call', () => {
    const body: Body = { messages: [{ role: 'user', content: 'go' }, ...turn('functions.list_dir:0'), ...turn('toolu_01'), ...turn('a.b')] };
    expect(validToolUseIds(body)).toBe(true);
    const mapped = [toolUseId('functions.list_dir:0'), toolUseId('functions.list_dir:0'), 'toolu_01', 'toolu_01', toolUseId('a.b'), toolUseId('a.b')];
    expect(idsOf(body)).toEqual(mapped);
    for (const id of mapped) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(callIdOf(mapped[0]!)).toBe('functions.list_dir:0');
  });

  it('an id already present that looks mapped is mapped again: no two ids become one', () => {
    const encoded = toolUseId('functions.list_dir:0');
    const body: Body = { messages: [...turn(encoded), ...turn('functions.list_dir:0')] };
    expect(validToolUseIds(body)).toBe(true);
    const ids = idsOf(body);
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(encoded);
  });

  it('a history whose ids all fit is left as it is, unwritten (its bytes are copied as sent)', () => {
    const body: Body = { messages: [...turn(toolUseId('functions.list_dir:0')), ...turn('toolu_01')] };
    const before = structuredClone(body);
    const { proxy, dirty } = trackWrites(body);
    expect(validToolUseIds(proxy)).toBe(false);
    expect(body).toEqual(before);
    expect(dirty.size).toBe(0);
  });
});
