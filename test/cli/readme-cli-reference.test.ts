/**
 * README's CLI reference against the commander tree: every command has a row, every option it has
 * is named in its rows and every option named there exists, the arguments a row gives fit the
 * command's, and aliases are the same. Names only: what the prose says is for people to check.
 *
 * A row's signature is a code span in its first cell (`svc-proxy group add SLUG [--model …]… [--json]`,
 * several joined by ` / `, the later ones without `svc-proxy`); `(alias \`rm\`)` beside it names an alias.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullProgram } from '../../src/cli/completion/full-program.js';
import { createContext, processIo } from '../../src/cli/io.js';

const root = join(import.meta.dirname, '..', '..');

interface Signature {
  text: string;
  /** The command it resolves to, by its path (`group add`); undefined when the words name none. */
  path?: string;
  options: string[];
  positionals: number;
  aliases: string[];
}

/** The CLI reference: from its heading to the next top-level heading. */
function reference(readme: string): string {
  const start = readme.indexOf('\n## CLI reference\n');
  expect(start, 'the CLI reference in README.md').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** Each table row's first cell that holds `svc-proxy …`. */
function commandCells(section: string): string[] {
  return section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split(/(?<!\\)\|/)[1] ?? '')
    .filter((cell) => cell.includes('`svc-proxy '));
}

/** The words of a signature: `\|` between words separates alternatives; brackets and `…` go. */
function words(span: string): string[] {
  return span
    .split(/\s+/)
    .filter((w) => w !== '' && w !== '\\|')
    .flatMap((w) => (w.startsWith('-') || w.startsWith('[-') ? w.split('\\|') : [w]))
    .map((w) => w.replace(/^[[(]+/, '').replace(/[\])…]+$/, ''))
    .filter((w) => w !== '');
}

function subcommand(cmd: Command, word: string): Command | undefined {
  return cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

function parse(program: Command, span: string, aliases: string[]): Signature {
  const text = span.startsWith('svc-proxy ') ? span : `svc-proxy ${span}`;
  const rest = words(text).slice(1);
  let cmd = program;
  const path: string[] = [];
  for (let next = subcommand(cmd, rest[0] ?? ''); next; next = subcommand(cmd, rest[0] ?? '')) {
    cmd = next;
    path.push(next.name());
    rest.shift();
  }
  const sig: Signature = { text, options: [], positionals: 0, aliases };
  if (path.length > 0 && cmd.commands.length === 0) sig.path = path.join(' ');
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (!word.startsWith('-')) {
      sig.positionals++;
      continue;
    }
    sig.options.push(word);
    const option = cmd.options.find((o) => o.long === word || o.short === word);
    // its value is the next word (`--port N`), unless that is another option
    if (option && (option.required || option.optional) && !rest[i + 1]?.startsWith('-')) i++;
  }
  return sig;
}

function signatures(program: Command, section: string): Signature[] {
  return commandCells(section).flatMap((cell) => {
    const aliases = [...cell.matchAll(/\(alias `([^`]+)`\)/g)].map((m) => m[1]!);
    const spans = [...cell.replace(/\(alias `[^`]+`\)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    return spans.map((span) => parse(program, span, aliases));
  });
}

/** Every command that runs (no subcommands), by its path. */
function leaves(cmd: Command, path: string[] = []): Map<string, Command> {
  const found = new Map<string, Command>();
  for (const sub of cmd.commands) {
    const here = [...path, sub.name()];
    if (sub.commands.length === 0) found.set(here.join(' '), sub);
    for (const [p, c] of leaves(sub, here)) found.set(p, c);
  }
  return found;
}

let program: Command;
let section: string;
let sigs: Signature[];
let commands: Map<string, Command>;

beforeAll(async () => {
  program = await fullProgram(createContext(processIo()));
  section = reference(await readFile(join(root, 'README.md'), 'utf8'));
  sigs = signatures(program, section);
  commands = leaves(program);
});

describe("README's CLI reference and the CLI", () => {
  it('has a row for every command, and every row names a command', () => {
    expect(commands.size).toBeGreaterThan(30);
    const documented = new Set(sigs.map((s) => s.path));
    expect([...commands.keys()].filter((p) => !documented.has(p)), 'commands with no row').toEqual([]);
    expect(sigs.filter((s) => s.path === undefined).map((s) => s.text), 'rows that name no command').toEqual([]);
  });

  it("names every option of a command in its rows, and none it does not have", () => {
    const missing: string[] = [];
    const extra: string[] = [];
    for (const [path, cmd] of commands) {
      const named = new Set(sigs.filter((s) => s.path === path).flatMap((s) => s.options));
      const real = cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined));
      missing.push(...real.filter((f) => !named.has(f)).map((f) => `${path} ${f}`));
      extra.push(...[...named].filter((f) => !real.includes(f)).map((f) => `${path} ${f}`));
    }
    expect(missing, 'options the CLI has that README does not name').toEqual([]);
    expect(extra, 'options README names that the CLI does not have').toEqual([]);
  });

  it("gives each command the arguments it takes: all it requires, no more than it has", () => {
    const wrong = sigs.flatMap((s) => {
      const args = s.path === undefined ? undefined : commands.get(s.path)?.registeredArguments;
      if (!args) return [];
      const required = args.filter((a) => a.required).length;
      return s.positionals < required || s.positionals > args.length ? [`${s.text}: ${s.positionals} argument(s); the CLI takes ${required}–${args.length}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it("names svc-proxy's own options (--version)", () => {
    const flags = program.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined));
    expect(flags.length).toBeGreaterThan(0);
    const spans = new Set([...section.matchAll(/`(?:svc-proxy )?(-[^`\s]+)`/g)].map((m) => m[1]!));
    expect(flags.filter((f) => !spans.has(f))).toEqual([]);
  });

  it('names the aliases a command has, and no other', () => {
    const wrong: string[] = [];
    for (const [path, cmd] of commands) {
      const named = new Set(sigs.filter((s) => s.path === path).flatMap((s) => s.aliases));
      const real = cmd.aliases();
      if ([...named].sort().join() !== [...real].sort().join()) wrong.push(`${path}: README ${[...named].join(',') || 'none'}, CLI ${real.join(',') || 'none'}`);
    }
    expect(wrong).toEqual([]);
  });
});
