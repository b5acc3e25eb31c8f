/**
 * How a failed command is reported: the message on stderr as ever, and, when the command line asked
 * for --json, also `{"error": {"code", "message", ...}}` on stdout, so a script that parses stdout
 * gets an answer it can read instead of nothing.
 */
import type { CommanderError } from 'commander';
import { ConfigFileError, OperationError } from '../config/errors.js';
import { CliError, type CliIo } from './io.js';

export interface ErrorReport {
  code: string;
  message: string;
  exitCode: number;
  /** Fields of the error that help a script (what was tried, which file…). */
  details: Readonly<Record<string, unknown>>;
}

export function reportOf(err: unknown): ErrorReport {
  if (err instanceof CliError) return { code: err.code, message: err.message, exitCode: err.exitCode, details: err.details };
  if (err instanceof OperationError) {
    // 400 is a value no state of svc-proxy would take (a malformed one, an unknown built-in provider):
    // usage. The rest were refused for what is configured now (a name not there, or taken).
    const exitCode = err.status === 400 ? 2 : 1;
    return { code: err.code, message: err.message, exitCode, details: {} };
  }
  if (err instanceof ConfigFileError) return { code: err.code, message: err.message, exitCode: 1, details: { file: err.file } };
  if (err instanceof Error) return { code: ownCode(err) ?? 'internal_error', message: err.message, exitCode: 1, details: {} };
  return { code: 'internal_error', message: String(err), exitCode: 1, details: {} };
}

/** Writes the error as the CLI reports it; returns the exit code. */
export function writeError(err: unknown, io: CliIo, json: boolean): number {
  const report = reportOf(err);
  io.stderr.write(`svc-proxy: ${report.message}\n`);
  if (json) writeErrorJson(io, report.code, report.message, report.details);
  return report.exitCode;
}

export function writeErrorJson(io: CliIo, code: string, message: string, details: Readonly<Record<string, unknown>> = {}): void {
  // code and message first, and never replaced by a detail of the same name
  const error = Object.assign({ code, message }, details, { code, message });
  io.stdout.write(`${JSON.stringify({ error }, null, 2)}\n`);
}

/** `--json` among the options (not after `--`, where the words belong to another program). */
export function jsonOnCommandLine(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

/** Commander's codes for a malformed command line, as the stable codes --json reports. */
const USAGE_CODES: Readonly<Record<string, string>> = {
  'commander.unknownCommand': 'unknown_command',
  'commander.unknownOption': 'unknown_option',
  'commander.missingArgument': 'missing_argument',
  'commander.excessArguments': 'too_many_arguments',
  'commander.missingMandatoryOptionValue': 'missing_option',
  'commander.optionMissingArgument': 'option_missing_value',
  'commander.invalidArgument': 'invalid_argument',
  'commander.conflictingOption': 'conflicting_options',
};

/** A commander usage error as JSON: its code, its message without "error: ", the usage line, and what commander suggests. */
export function writeUsageErrorJson(io: CliIo, err: CommanderError, usage: string, suggestions: readonly string[]): void {
  const message = err.message.replace(/^error: /, '').replace(/\n?\(Did you mean .*\)$/s, '');
  writeErrorJson(io, USAGE_CODES[err.code] ?? 'usage_error', message, { usage, ...(suggestions.length > 0 ? { suggestions } : {}) });
}

/** The code an error names itself (DaemonUnreachableError's, or Node's ENOENT, EACCES…). */
function ownCode(err: Error): string | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}
