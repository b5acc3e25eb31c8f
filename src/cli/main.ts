/**
 * The svc-proxy CLI. `main(argv)` returns the exit code: 0 ok, 1 error, 2 usage.
 * Only the command being run is loaded (see registry.ts). The bin shim (bin/svc-proxy.cjs) answers
 * `--version` itself, before any ESM loads; main() answers it too for in-process callers.
 */
import type { OutputConfiguration } from 'commander';
import { packageVersion } from '../config/version.js';
import { jsonOnCommandLine, writeError, writeUsageErrorJson } from './error-report.js';
import { createContext, processIo, type CliIo } from './io.js';
import { HELP_SETTINGS } from './help-layout.js';
import { unknownHelpTopic } from './help-topic.js';
import { COMMANDS, findCommand } from './registry.js';
import { COMPLETE_COMMAND } from './completion/complete-command.js';
import { needsUsageHint, suggestionsIn, unknownCommandHint, usageHint, usageLine } from './usage-hint.js';

/** Commander errors that are not usage errors. */
const COMMANDER_OK = new Set(['commander.helpDisplayed', 'commander.version']);

export async function main(argv: readonly string[] = process.argv, io: CliIo = processIo()): Promise<number> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  // Completion scripts call this at every Tab: before commander and any command loads.
  if (args[0] === COMPLETE_COMMAND) {
    const { completionValues } = await import('./completion/completion-values.js');
    for (const name of await completionValues(args.slice(1), io.env)) io.stdout.write(`${name}\n`);
    return 0;
  }

  const { Command, CommanderError } = await import('commander');
  const ctx = createContext(io);
  const program = new Command('svc-proxy')
    .description('One localhost proxy and one key for every coding tool and every model provider.')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .showSuggestionAfterError()
    // so a long subcommand term (`group set`) cannot push the help past a narrow terminal's edge
    .configureHelp(HELP_SETTINGS)
    .configureOutput(outputSettings(io));

  // The command to load: the first word, or the word after `help`.
  const first = args.find((a) => !a.startsWith('-'));
  const wanted = first === 'help' ? findCommand(args[args.indexOf('help') + 1]) : findCommand(first);
  for (const entry of COMMANDS) {
    if (entry === wanted) {
      (await entry.load()).register(program, ctx);
    } else {
      // Listed in the help only; never run (its module is not loaded).
      const placeholder = program.command(entry.name).description(entry.summary);
      for (const alias of entry.aliases ?? []) placeholder.alias(alias);
    }
  }
  // Subcommands inherit the exit override and output settings.
  const jsonLine = jsonOnCommandLine(args);
  program.exitOverride((err) => onCommanderError(program, err, io, jsonLine));
  for (const cmd of program.commands) applySettings(cmd, io, jsonLine);
  // --json as the command that runs parsed it (not a word after `--`, nor an option's value)
  // Before the action, an error is an option parser's (`--header x`, with --json maybe later on the
  // line): the command line's --json is all there is to go by.
  let jsonAsked: boolean | undefined;
  program.hook('preAction', (_program, action) => {
    jsonAsked = action.opts().json === true;
  });

  try {
    if (args.length === 0) {
      program.outputHelp({ error: true });
      return 2;
    }
    const unknownTopic = unknownHelpTopic(program, args);
    await program.parseAsync(unknownTopic ? [...argv.slice(0, 2), ...unknownTopic] : (argv as string[]));
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (COMMANDER_OK.has(err.code)) return 0;
      // Help asked for (`help <cmd>`) is 0; help shown because a subcommand was missing is a usage error.
      if (err.code === 'commander.help') return err.exitCode === 0 ? 0 : 2;
      return 2;
    }
    return writeError(err, io, jsonAsked ?? jsonLine);
  }
}

type CommandLike = import('commander').Command;

/** Help goes to this run's streams, as wide as the terminal they are (else 80, as commander would). */
function outputSettings(io: CliIo): OutputConfiguration {
  return {
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    getOutHelpWidth: () => terminalColumns(io.stdout),
    getErrHelpWidth: () => terminalColumns(io.stderr),
  };
}

function terminalColumns(stream: CliIo['stdout']): number {
  return (stream.isTTY ? stream.columns : undefined) ?? 80;
}

function applySettings(cmd: CommandLike, io: CliIo, jsonLine: boolean): void {
  cmd.exitOverride((err) => onCommanderError(cmd, err, io, jsonLine));
  cmd.configureOutput(outputSettings(io));
  for (const sub of cmd.commands) applySettings(sub, io, jsonLine);
}

/**
 * After commander's one-line error, the syntax it wanted (and with --json on the line, the error as
 * JSON on stdout); thrown on as exitOverride() alone would.
 */
function onCommanderError(cmd: CommandLike, err: InstanceType<typeof import('commander').CommanderError>, io: CliIo, jsonLine: boolean): void {
  if (needsUsageHint(err.code)) io.stderr.write(usageHint(cmd));
  else if (err.code === 'commander.unknownCommand') io.stderr.write(unknownCommandHint(cmd, err.message));
  if (jsonLine && isUsageError(err)) writeUsageErrorJson(io, err, usageLine(cmd), suggestionsIn(err.message));
  if (err.code !== 'commander.executeSubCommandAsync') throw err;
}

/** A malformed command line (not help asked for, nor help shown for a missing subcommand). */
function isUsageError(err: InstanceType<typeof import('commander').CommanderError>): boolean {
  return err.exitCode !== 0 && !COMMANDER_OK.has(err.code) && err.code !== 'commander.help' && err.code !== 'commander.executeSubCommandAsync';
}
