/**
 * README's table of --json error codes is the list a script can rely on: every code the CLI names
 * (in src/cli, and those of the errors it passes on as they are) is in it, and it lists none that
 * nothing names any more.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => join(e.parentPath, e.name));
}

function quoted(text: string): string[] {
  return [...text.matchAll(/'([a-z][a-z_]*)'/g)].map((m) => m[1]!);
}

/** Codes as the sources write them: `code: 'x'` (or `code: cond ? 'x' : 'y'`), `new OperationError(503, 'x'`, a class's `readonly code = 'x'`. */
function codesIn(text: string): string[] {
  return [
    ...[...text.matchAll(/\bcode: ([^,}\n]+)/g)].flatMap((m) => quoted(m[1]!)),
    ...[...text.matchAll(/new OperationError\(\d+, '([a-z_]+)'/g)].map((m) => m[1]!),
    ...[...text.matchAll(/readonly code = '([a-z_]+)'/g)].map((m) => m[1]!),
  ];
}

async function codesNamed(): Promise<Set<string>> {
  const codes = new Set<string>();
  for (const file of await sourceFiles('src/cli')) for (const code of codesIn(await readFile(file, 'utf8'))) codes.add(code);
  // what CliError falls back on, and commander's codes as --json reports them
  const io = await readFile(join(root, 'src/cli/io.ts'), 'utf8');
  for (const m of io.matchAll(/return '([a-z_]+)';/g)) codes.add(m[1]!);
  const report = await readFile(join(root, 'src/cli/error-report.ts'), 'utf8');
  for (const m of report.matchAll(/'commander\.\w+': '([a-z_]+)'|\?\? '([a-z_]+)'/g)) codes.add((m[1] ?? m[2])!);
  // errors of other modules the CLI reports with their own code
  for (const file of ['src/log/since.ts', 'src/log/filter.ts', 'src/daemon/http-json.ts']) {
    for (const code of codesIn(await readFile(join(root, file), 'utf8'))) codes.add(code);
  }
  const configErrors = await readFile(join(root, 'src/config/errors.ts'), 'utf8');
  const union = /type ConfigFileCode = ([^;]+);/.exec(configErrors);
  expect(union, 'ConfigFileCode in src/config/errors.ts').not.toBeNull();
  for (const code of quoted(union![1]!)) codes.add(code);
  return codes;
}

async function codesListed(): Promise<Set<string>> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('| code | exit | when |');
  expect(start, 'the table of codes in README.md').toBeGreaterThan(0);
  const rows = readme.slice(start).split('\n\n')[0]!.split('\n').slice(2);
  return new Set(rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)));
}

describe('README lists the CLI\'s error codes', () => {
  it('every code the CLI names is in the table, and the table names no other', async () => {
    const named = await codesNamed();
    const listed = await codesListed();
    expect(named.size).toBeGreaterThan(30);
    expect([...named].filter((c) => !listed.has(c)).sort(), 'codes missing from README').toEqual([]);
    expect([...listed].filter((c) => !named.has(c)).sort(), 'codes README lists that nothing names').toEqual([]);
  });
});
