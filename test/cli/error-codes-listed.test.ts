/**
 * README's table of --json error codes is the list a script can rely on: every code the CLI names
 * (in src/cli, and those of the errors it passes on as they are) is in it, and it lists none that
 * nothing names any more; and the exit a CliError gives with a code is the one its row says.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
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

interface Row {
  exit: string;
  when: string;
}

/** README's table: each code with its row's exit and what the row says of it. */
async function tableRows(): Promise<Map<string, Row>> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('| code | exit | when |');
  expect(start, 'the table of codes in README.md').toBeGreaterThan(0);
  const rows = readme.slice(start).split('\n\n')[0]!.split('\n').slice(2);
  return new Map(
    rows.flatMap((row) => {
      const [, codes, exit, when] = row.split(/(?<!\\)\|/);
      return [...codes!.matchAll(/`([a-z_]+)`/g)].map((m) => [m[1]!, { exit: exit!.trim(), when: when!.trim() }] as const);
    }),
  );
}

async function codesListed(): Promise<Set<string>> {
  return new Set((await tableRows()).keys());
}

/** Each `new CliError(message, <number>, { code: 'x' })` in src/cli (a code given as `a ? 'x' : 'y'` counts for both), where it is. */
async function cliErrorExits(): Promise<{ code: string; exit: string; at: string }[]> {
  const found: { code: string; exit: string; at: string }[] = [];
  for (const file of await sourceFiles('src/cli')) {
    const source = ts.createSourceFile(file, await readFile(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node) && node.expression.getText() === 'CliError' && node.arguments && node.arguments.length >= 3) {
        const [, exit, options] = node.arguments;
        if (ts.isNumericLiteral(exit!) && ts.isObjectLiteralExpression(options!)) {
          const code = options.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'code') as ts.PropertyAssignment | undefined;
          const at = `${file.slice(root.length + 1)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
          for (const c of code ? quoted(code.initializer.getText()) : []) found.push({ code: c, exit: exit.text, at });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('README lists the CLI\'s error codes', () => {
  it('every code the CLI names is in the table, and the table names no other', async () => {
    const named = await codesNamed();
    const listed = await codesListed();
    expect(named.size).toBeGreaterThan(30);
    expect([...named].filter((c) => !listed.has(c)).sort(), 'codes missing from README').toEqual([]);
    expect([...listed].filter((c) => !named.has(c)).sort(), 'codes README lists that nothing names').toEqual([]);
  });

  // a row may say where one of its codes exits otherwise ("Exit 1 for …")
  it("each code a CliError gives exits as its row says", async () => {
    const rows = await tableRows();
    const exits = await cliErrorExits();
    expect(exits.length).toBeGreaterThan(30);
    const wrong = exits.filter(({ code, exit }) => {
      const row = rows.get(code);
      return row !== undefined && row.exit !== exit && !row.when.includes(`Exit ${exit} `);
    });
    expect(wrong.map(({ code, exit, at }) => `${code} exits ${exit} at ${at}; README: ${rows.get(code)!.exit}`)).toEqual([]);
  });
});
