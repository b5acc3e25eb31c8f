import { describe, expect, it } from 'vitest';
import type { GroupDetail } from '../../../src/config/groups.js';
import { groupRows, moveTarget, parseTargets, rowId } from '../../../src/tui/groups/rows.js';

const status = (target: string) => ({ target, provider: target.split('/')[0]!, model: target.slice(target.indexOf('/') + 1), kind: 'provider' as const, connected: true });

describe('group rows', () => {
  it('flattens groups → names → targets in order, with unique ids', () => {
    const groups: GroupDetail[] = [
      { slug: 'work', created: '', baseUrls: { a: '', b: '' }, models: [{ name: 'sonnet', targets: [status('anthropic/claude-sonnet-4-5'), status('openrouter/anthropic/claude-sonnet-4.5')] }] },
      { slug: 'empty', created: '', baseUrls: { a: '', b: '' }, models: [] },
    ];
    const rows = groupRows(groups);
    expect(rows.map((r) => `${r.kind}:${r.kind === 'target' ? r.index : r.kind === 'name' ? r.name : r.slug}`)).toEqual(['group:work', 'name:sonnet', 'target:0', 'target:1', 'group:empty']);
    expect(new Set(rows.map(rowId)).size).toBe(rows.length);
    const t = rows[3]!;
    expect(t.kind === 'target' && t.targets).toEqual(['anthropic/claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5']);
  });

  it('moves a target one place, never past the ends', () => {
    expect(moveTarget(['a/1', 'b/2', 'c/3'], 2, -1)).toEqual(['a/1', 'c/3', 'b/2']);
    expect(moveTarget(['a/1', 'b/2', 'c/3'], 0, 1)).toEqual(['b/2', 'a/1', 'c/3']);
    expect(moveTarget(['a/1', 'b/2'], 0, -1)).toBeNull();
    expect(moveTarget(['a/1', 'b/2'], 1, 1)).toBeNull();
  });

  it('reads targets separated by commas and/or spaces', () => {
    expect(parseTargets(' anthropic/x, openai/y  gemini/z,,')).toEqual(['anthropic/x', 'openai/y', 'gemini/z']);
    expect(parseTargets('   ')).toEqual([]);
  });
});
