/**
 * README's options table for `svc-proxy env` and `svc-proxy run` against the two commands: it names
 * every option either has and no other, and a row whose options only one of them takes says so
 * ("`env` only"), as the CLI reference's rows are checked in readme-cli-reference.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullProgram } from '../../src/cli/completion/full-program.js';
import { createContext, processIo } from '../../src/cli/io.js';

const root = join(import.meta.dirname, '..', '..');
const heading = '\n### `svc-proxy env` and `svc-proxy run`\n';

interface Row {
  options: string[];
  meaning: string;
}

/** The `| option | meaning |` table of README's env/run section. */
function optionRows(readme: string): Row[] {
  const start = readme.indexOf(heading);
  expect(start, 'the env/run section in README.md').toBeGreaterThan(0);
  const end = readme.indexOf('\n### ', start + heading.length);
  const lines = readme.slice(start, end === -1 ? undefined : end).split('\n');
  const header = lines.indexOf('| option | meaning |');
  expect(header, 'its options table').toBeGreaterThan(0);
  const body = lines.slice(header + 2);
  const rows = body.slice(0, body.findIndex((l) => !l.startsWith('|')));
  return rows.map((line) => {
    const [, first = '', ...rest] = line.split(/(?<!\\)\|/);
    return { options: [...first.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]), meaning: rest.join('|') };
  });
}

function longOptions(cmd: Command): string[] {
  return cmd.options.map((o) => o.long).filter((f): f is string => f !== undefined);
}

let rows: Row[];
let env: string[];
let run: string[];

beforeAll(async () => {
  const program = await fullProgram(createContext(processIo()));
  const command = (name: string) => program.commands.find((c) => c.name() === name)!;
  env = longOptions(command('env'));
  run = longOptions(command('run'));
  rows = optionRows(await readFile(join(root, 'README.md'), 'utf8'));
});

describe("README's env/run options table", () => {
  it('names every option of env and run, and none they do not have', () => {
    const named = rows.flatMap((r) => r.options);
    expect(run.length).toBeGreaterThan(0);
    expect([...new Set(named)].sort()).toEqual([...new Set([...env, ...run])].sort());
  });

  it("says which options only env or only run takes, and no more", () => {
    const wrong = rows.flatMap((row) => {
      const reach = new Set(row.options.map((o) => (!run.includes(o) ? '`env` only' : !env.includes(o) ? '`run` only' : 'both')));
      if (reach.size !== 1) return [`${row.options.join(' ')}: one row for options of different reach`];
      const [said] = reach;
      const claims = ['`env` only', '`run` only'].filter((c) => row.meaning.includes(c));
      return claims.join() === (said === 'both' ? '' : said) ? [] : [`${row.options.join(' ')}: README says ${claims.join() || 'both'}, the CLI ${said}`];
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});
