/**
 * The help every command prints, read from the real command tree (every module in the registry,
 * registered as main() registers the one being run): what a user reads before running anything.
 */
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, type CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { settingsSchema } from '../../src/config/schema.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { documentedJsonKeys } from '../fixtures/json-help.js';
import { bashRuns } from '../fixtures/shell-example.js';

/** `svc-proxy <page> --help` as printed to a terminal `columns` wide (undefined: to a pipe). */
async function helpPage(page: string, columns: number | undefined): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const io: CliIo = { stdout: { write: (s: string) => (stdout += s), isTTY: columns !== undefined, columns }, stderr: { write: () => true }, stdin: process.stdin, env: {} };
  const code = await main(['node', 'svc-proxy', ...page.split(' ').filter(Boolean), '--help'], io);
  return { code, stdout };
}

/** A line past the edge may only be one word longer than the width (help-examples.ts keeps it whole). */
function unbreakable(line: string, width: number): boolean {
  const words = line.trim().replace(/ \\$/, '').split(' ');
  return words.length === 1 && [...words[0]].length > width;
}

/** The lines of a page's Example(s) section, as a shell script. */
function examplesOf(page: string): string {
  const lines = page.split('\n');
  const from = lines.findIndex((l) => /^Examples?:$/.test(l));
  if (from === -1) return '';
  const examples = lines.slice(from + 1);
  const end = examples.findIndex((l) => !l.startsWith(' '));
  return examples.slice(0, end === -1 ? undefined : end).join('\n');
}

async function commandTree(): Promise<Command> {
  const io: CliIo = { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin, env: {} };
  const program = new Command('svc-proxy');
  for (const entry of COMMANDS) (await entry.load()).register(program, createContext(io));
  return program;
}

function allCommands(cmd: Command, path: string[] = []): { path: string; cmd: Command }[] {
  return cmd.commands.flatMap((sub) => [{ path: [...path, sub.name()].join(' '), cmd: sub }, ...allCommands(sub, [...path, sub.name()])]);
}

describe('command help', () => {
  it('every command and subcommand describes itself starting with a capital, as the others do', async () => {
    const lower = allCommands(await commandTree()).filter(({ cmd }) => !/^[A-Z]/.test(cmd.description()));
    expect(lower.map((c) => `${c.path}: ${c.cmd.description()}`)).toEqual([]);
  });

  it('every positional argument is explained under Arguments', async () => {
    const commands = allCommands(await commandTree());
    const bare = commands.flatMap(({ path, cmd }) => cmd.registeredArguments.filter((a) => a.description.trim() === '').map((a) => `${path} <${a.name()}>`));
    expect(bare).toEqual([]);
    // and the help shows them: one command that takes two
    const help = await runCli(['group', 'unset', '--help']);
    expect(help.stdout).toMatch(/Arguments:\n {2}slug +\S.*\n {2}name +\S/);
  });

  it('--port says what 0 does wherever it is taken (start and restart)', async () => {
    const withPort = allCommands(await commandTree()).filter(({ cmd }) => cmd.options.some((o) => o.long === '--port'));
    expect(withPort.map((c) => c.path).sort()).toEqual(['restart', 'start']);
    for (const { cmd } of withPort) expect(cmd.options.find((o) => o.long === '--port')!.description).toContain('0 = any free port');
  });

  it("--host and --port give settings.host and settings.port as their default, with the values those default to", async () => {
    const defaults = settingsSchema.parse({});
    const withAddress = allCommands(await commandTree()).filter(({ cmd }) => cmd.options.some((o) => o.long === '--host'));
    expect(withAddress.map((c) => c.path).sort()).toEqual(['restart', 'start']);
    for (const { cmd } of withAddress) {
      expect(cmd.options.find((o) => o.long === '--host')!.description).toContain(`default: settings.host, ${defaults.host} unless set`);
      expect(cmd.options.find((o) => o.long === '--port')!.description).toContain(`default: settings.port, ${defaults.port} unless set`);
      // both print the exposure warning when run (warnIfExposed): their help says it before
      expect(cmd.options.find((o) => o.long === '--host')!.description).toContain('one beyond loopback is reachable from other machines');
    }
    const start = withAddress.find((c) => c.path === 'start')!.cmd;
    expect(start.description()).toContain(`on settings.host:settings.port, ${defaults.host}:${defaults.port} unless set`);
  });

  it('the top-level list names more of `provider set` than --base-url', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toMatch(/provider +built-in providers: list, connect, disconnect, set \(base URL,\s+gateway headers\)/);
  });

  it.each([
    { width: 80, terminal: undefined, what: 'a pipe or an 80-column terminal' },
    { width: 60, terminal: 60, what: 'a 60-column terminal' },
    { width: 40, terminal: 40, what: 'a 40-column terminal' },
  ])('every help page fits $width columns ($what)', async ({ width, terminal }) => {
    const pages = ['', ...allCommands(await commandTree()).map((c) => c.path)];
    const over: string[] = [];
    for (const page of pages) {
      const help = await helpPage(page, terminal);
      expect(help.code, page).toBe(0);
      for (const line of help.stdout.split('\n')) if ([...line].length > width && !unbreakable(line, width)) over.push(`svc-proxy ${page} --help: ${line}`);
    }
    expect(over).toEqual([]);
  });

  it('past 40 columns go only words longer than the width, alone on their line', async () => {
    const pages = ['', ...allCommands(await commandTree()).map((c) => c.path)];
    const over: string[] = [];
    for (const page of pages) for (const line of (await helpPage(page, 40)).stdout.split('\n')) if ([...line].length > 40) over.push(line.trim());
    expect(over).toEqual(['fast=openai/gpt-5-mini,anthropic/claude-haiku-4-5']);
  });

  it('the shell examples of every page, laid out for 40 and 60 columns, run in bash as at 200', async () => {
    const pages = ['', ...allCommands(await commandTree()).map((c) => c.path)];
    let checked = 0;
    for (const page of pages) {
      const wide = examplesOf((await helpPage(page, 200)).stdout);
      if (wide === '') continue;
      const narrow = [examplesOf((await helpPage(page, 60)).stdout), examplesOf((await helpPage(page, 40)).stdout)];
      const [asWritten, ...runs] = await bashRuns([wide, ...narrow]);
      expect(asWritten, page).toMatch(/\[/);
      for (const [i, run] of runs.entries()) expect(run, narrow[i]).toBe(asWritten);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(17); // every command that takes arguments or a required option
  });

  it('every command that takes arguments or a required option has an example, each a run of that command', async () => {
    const needing = allCommands(await commandTree()).filter(({ cmd }) => cmd.registeredArguments.length > 0 || cmd.options.some((o) => o.mandatory));
    expect(needing.length).toBeGreaterThanOrEqual(17);
    const missing: string[] = [];
    for (const { path } of needing) {
      const examples = examplesOf((await helpPage(path, 200)).stdout);
      // each example, its continued lines joined, runs this very command
      const commands = examples === '' ? [] : examples.replace(/ \\\n\s*/g, ' ').split('\n');
      if (commands.length === 0 || !commands.every((c) => c.includes(`svc-proxy ${path}`))) missing.push(`${path}: ${JSON.stringify(examples)}`);
    }
    expect(missing).toEqual([]);
  });

  it('a description whose column would be too narrow goes under its term, wrapped', async () => {
    const help = await helpPage('group', 60);
    expect(help.stdout).toMatch(/\n {2}unset \[options\] <slug> <name>\n {6}Remove a model name/);
  });

  it('at 40 columns the usage wraps under the command name, and a description with a word too long for its column goes under its term', async () => {
    const help = (await helpPage('group set', 40)).stdout;
    expect(help).toMatch(/^Usage: svc-proxy group set \[options\]\n {7}<slug> <name> <targets>\n/);
    expect(help).toMatch(/\n {2}targets\n {6}provider\/model\[,provider\/model…\],\n/);
  });

  it('the extra text of env --help is wrapped to the terminal, not to 80 columns', async () => {
    const wide = await helpPage('env', 200);
    expect(wide.stdout).toContain('$SVC_PROXY_KEY; the key svc-proxy saved for this tool; otherwise');
    const narrow = await helpPage('env', 60);
    expect(narrow.stdout).toContain('\nThe service key, in order: --key; --new-key; $SVC_PROXY_KEY;\nthe key svc-proxy saved');
  });

  it('env and run --key say a saved key is taken by its name or id, as README says', async () => {
    for (const command of ['env', 'run']) {
      const help = await runCli([command, '--help']);
      expect(help.stdout.replace(/\s+/g, ' '), command).toContain('or the name or id of a key svc-proxy saved for a tool');
    }
  });

  it('stats --since says its default and "all"', async () => {
    const help = await runCli(['stats', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('default 24h, "all" for every retained file');
  });

  // "ok: nothing failed (exit 0)" read as --json always exiting 0; it exits 1 as without --json
  it('doctor --json says ok is false exactly when the exit is 1, as README says', async () => {
    const help = await runCli(['doctor', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('ok false exactly when the exit is 1');
  });
});

describe('--json help says what the output holds', () => {
  afterAll(removeTempDirs);

  // the commands that run without a daemon; start, restart and models are checked where one runs (e2e)
  it.each([
    { command: ['key', 'create'], args: ['--name', 'shape'] },
    { command: ['doctor'], args: [] },
  ])('svc-proxy $command --json has the top-level keys its help names', async ({ command, args }) => {
    const env = { SVC_PROXY_HOME: await tempStateDir(), SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), XDG_CONFIG_HOME: await tempStateDir() };
    const printed = JSON.parse((await runCli([...command, ...args, '--json'], { env })).stdout) as Record<string, unknown>;
    expect(Object.keys(printed).sort()).toEqual((await documentedJsonKeys(command)).sort());
  });
});
