/**
 * Shell examples laid out for narrow terminals (src/cli/help-examples.ts): what the shell reads
 * must not change, so the narrow layouts are run by the real bash next to the written ones.
 */
import { describe, expect, it } from 'vitest';
import { layOutExample, shellWords } from '../../src/cli/help-examples.js';
import { bashRuns } from '../fixtures/shell-example.js';

describe('shell examples in help', () => {
  it('splits words where the shell does: not in quotes, but inside a command substitution', () => {
    expect(shellWords(`eval "$(svc-proxy env x --model 'a b')" run "fix the test" a\\ b`)).toEqual(['eval', '"$(svc-proxy', 'env', 'x', '--model', "'a b')\"", 'run', '"fix the test"', 'a\\ b']);
  });

  it('keeps the lines as written where they fit', () => {
    const written = ['  svc-proxy env codex --config-file \\', '    --model anthropic/claude-sonnet-4-5 \\', '    > ~/.codex/svc-proxy.config.toml'];
    expect(layOutExample(written, 80)).toEqual(written);
  });

  it('breaks a line too wide between words with a continuation, an option with its value', () => {
    expect(layOutExample(['  svc-proxy run claude --model openai/gpt-5.4'], 40)).toEqual(['  svc-proxy run claude \\', '    --model openai/gpt-5.4']);
    expect(layOutExample(['  svc-proxy run codex --model anthropic/claude-sonnet-4-5 \\', '    exec "fix the failing test"'], 40)).toEqual([
      '  svc-proxy run codex --model \\',
      '    anthropic/claude-sonnet-4-5 \\',
      '    exec "fix the failing test"',
    ]);
  });

  it('leaves quoted text whole and a word wider than the terminal whole, past the edge', () => {
    expect(layOutExample(['  svc-proxy run codex exec "fix the failing test in the parser"'], 30)).toEqual(['  svc-proxy run codex exec \\', '    "fix the failing test in the parser"']);
    expect(layOutExample(['  svc-proxy group add q --model fast=openai/gpt-5-mini,anthropic/claude-haiku-4-5'], 40)).toEqual([
      '  svc-proxy group add q --model \\',
      '    fast=openai/gpt-5-mini,anthropic/claude-haiku-4-5',
    ]);
  });

  it('the narrow layouts run in bash as the written example does', async () => {
    const examples = [
      ['  eval "$(svc-proxy env claude-code --model openai/gpt-5.4)"'],
      ['  svc-proxy run codex --model anthropic/claude-sonnet-4-5 \\', '    exec "fix the failing test"'],
      ["  svc-proxy env x --key 'two  spaces' --group g --model a/b --json"],
    ];
    for (const example of examples) {
      const layouts = [example, ...[40, 30, 24].map((width) => layOutExample(example, width))];
      const runs = await bashRuns(layouts.map((lines) => lines.join('\n')));
      expect(runs[0]).toMatch(/\[/);
      for (const [i, run] of runs.entries()) expect(run, layouts[i].join('\n')).toBe(runs[0]);
    }
  });
});
