/** Which tool_use id rewrites a (service key, target) pair needed, kept for its next request (tool-use-id-rewrites.ts). */
import { describe, expect, it } from 'vitest';
import { rewriteToolUseIds, rewrittenOnRefusal, ToolUseIdMemory } from '../../src/routing/tool-use-id-rewrites.js';

const body = (ids: string[]): Record<string, unknown> => ({
  messages: ids.flatMap((id) => [
    { role: 'assistant', content: [{ type: 'tool_use', id, name: 'f', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'x' }] },
  ]),
});

describe('rewriteToolUseIds', () => {
  it('answers the rewrites that changed the body, only of those asked', () => {
    const both = { validToolUseIds: true, uniqueToolUseIds: true };
    expect(rewriteToolUseIds(body(['f:0', 'f:0']), both)).toEqual(both);
    expect(rewriteToolUseIds(body(['f:0', 'g']), both)).toEqual({ validToolUseIds: true });
    expect(rewriteToolUseIds(body(['f_0', 'f_0']), both)).toEqual({ uniqueToolUseIds: true });
    expect(rewriteToolUseIds(body(['f_0', 'g']), both)).toBeUndefined();
    expect(rewriteToolUseIds(body(['f:0']), { uniqueToolUseIds: true })).toBeUndefined();
  });
});

describe('rewrittenOnRefusal', () => {
  it('a copy rewritten as the refusal asks; the body itself is left as it is', () => {
    const sent = body(['f:0', 'f:0']);
    const before = structuredClone(sent);
    const pattern = '{"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content.0.tool_use.id: String should match pattern \'^[a-zA-Z0-9_-]+$\'"}}';
    const again = rewrittenOnRefusal(pattern, sent) as { messages: Array<{ content: Array<{ id?: string }> }> };
    expect(sent).toEqual(before);
    const uses = again.messages.flatMap((m) => m.content).flatMap((b) => (b.id === undefined ? [] : [b.id]));
    expect(new Set(uses).size).toBe(2);
    expect(rewrittenOnRefusal('{"error":{"message":"messages.0.content.0: `tool_use` ids must be unique"}}', body(['f_0', 'f_0']))).toBeDefined();
    // nothing to rewrite, or another refusal: undefined
    expect(rewrittenOnRefusal(pattern, body(['f_0', 'g']))).toBeUndefined();
    expect(rewrittenOnRefusal('{"error":{"message":"max_tokens: Field required"}}', sent)).toBeUndefined();
  });
});

describe('ToolUseIdMemory', () => {
  it('keeps what a pair needed for its next request, per service key and target; forgets after one that needed nothing', () => {
    const memory = new ToolUseIdMemory();
    expect(memory.recall('k1', 'anthropic/claude-sonnet-4-5')).toBeUndefined();
    memory.settle('k1', 'anthropic/claude-sonnet-4-5', { validToolUseIds: true });
    expect(memory.recall('k1', 'anthropic/claude-sonnet-4-5')).toEqual({ validToolUseIds: true });
    expect(memory.recall('k2', 'anthropic/claude-sonnet-4-5')).toBeUndefined();
    expect(memory.recall('k1', 'anthropic/claude-opus-4-7')).toBeUndefined();
    memory.settle('k1', 'anthropic/claude-sonnet-4-5', { uniqueToolUseIds: true });
    expect(memory.recall('k1', 'anthropic/claude-sonnet-4-5')).toEqual({ uniqueToolUseIds: true });
    memory.settle('k1', 'anthropic/claude-sonnet-4-5', undefined);
    expect(memory.recall('k1', 'anthropic/claude-sonnet-4-5')).toBeUndefined();
  });

  it('forgets the pairs of a key no longer active (revoked, removed), and only those (a request without a key id is no key\'s)', () => {
    const memory = new ToolUseIdMemory();
    for (const key of ['k1', 'k2', '']) memory.settle(key, 't', { validToolUseIds: true });
    memory.keepOnly(new Set(['k2']));
    expect(['k1', 'k2', ''].map((key) => memory.recall(key, 't') !== undefined)).toEqual([false, true, true]);
  });

  it('is bounded: the pair least recently settled goes first', () => {
    const memory = new ToolUseIdMemory(2);
    for (const key of ['a', 'b']) memory.settle(key, 't', { validToolUseIds: true });
    memory.settle('a', 't', { validToolUseIds: true });
    memory.settle('c', 't', { validToolUseIds: true });
    expect(['a', 'b', 'c'].map((key) => memory.recall(key, 't') !== undefined)).toEqual([true, false, true]);
  });
});
