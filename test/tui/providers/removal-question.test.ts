import { describe, expect, it } from 'vitest';
import type { GroupUse } from '../../../src/config/group-uses.js';
import { CHECKING, REMOVAL_QUESTION_LINES, removalQuestion } from '../../../src/tui/providers/removal-question.js';
import type { UpstreamRow } from '../../../src/tui/providers/rows.js';

const local: UpstreamRow = { kind: 'local', name: 'lm', info: { slug: 'lm', url: 'http://127.0.0.1:11434', detected: false, created: '2026-01-01T00:00:00.000Z' } };
const use = (group: string): GroupUse => ({ group, name: 'coder', targets: ['lm/llama3.1:8b'] });

describe('removalQuestion', () => {
  it('asks plainly when no group routes there, and says so when the groups could not be checked', () => {
    expect(removalQuestion(local, [], 80)).toEqual({ text: 'Remove local server lm?', lines: 1 });
    expect(removalQuestion(local, 'unknown', 80)).toEqual({ text: 'Remove local server lm? (The model groups routing to it could not be checked.)', lines: 2 });
  });

  it('waits while the groups are being checked, counting its own answer in the lines', () => {
    expect(removalQuestion(local, 'checking', 80)).toEqual({ text: 'Remove local server lm?', waiting: CHECKING, lines: 1 });
    // 23 + " [checking groups…]" (19) overflows 30 columns where " [y/N]" does not
    expect(removalQuestion(local, 'checking', 30).lines).toBe(2);
    expect(removalQuestion(local, [], 30).lines).toBe(1);
  });

  it('names the groups when they fit, and the lines they take', () => {
    const q = removalQuestion(local, [use('work'), use('home')], 80);
    expect(q.text).toBe('Remove local server lm? Model group work still routes coder to lm/llama3.1:8b; model group home still routes coder to lm/llama3.1:8b; those targets would then fail.');
    expect(q.lines).toBe(3);
  });

  it('counts them instead when the list would not fit, so [y/N] stays on screen', () => {
    const q = removalQuestion(local, Array.from({ length: 12 }, (_, i) => use(`g${i}`)), 80);
    expect(q.text).toBe('Remove local server lm? 12 model group names still route to it (see the Groups screen); those targets would then fail.');
    expect(q.lines).toBeLessThanOrEqual(REMOVAL_QUESTION_LINES);
  });

  it('never lets a name from config.json control the terminal', () => {
    expect(removalQuestion(local, [use('evil\x1b[2J')], 80).text).not.toContain('\x1b');
  });
});
