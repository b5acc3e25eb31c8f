/** What a CLI command talks to: its streams and environment (injectable, so tests run in-process). */
import { resolveStateDir, statePaths, type StatePaths } from '../config/paths.js';

/** `isTTY`/`columns` as a terminal's stream has them (the help is wrapped to its width). */
interface OutStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown; fd?: number };
  env: Record<string, string | undefined>;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

/** What a CliError may add: a stable `code` for scripts, and fields that help (printed with --json). */
export interface CliErrorOptions {
  code?: string;
  details?: Readonly<Record<string, unknown>>;
}

/**
 * An error the CLI reports as a plain message with an exit code (1 = failed, 2 = usage), and with
 * --json as `{"error": {code, message, ...details}}` on stdout. Without a code of its own, the
 * code says which kind of failure the exit code is.
 */
export class CliError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    message: string,
    readonly exitCode: number = 1,
    options: CliErrorOptions = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.code = options.code ?? defaultCode(exitCode);
    this.details = options.details ?? {};
  }
}

function defaultCode(exitCode: number): string {
  if (exitCode === 2) return 'invalid_argument';
  if (exitCode === 130) return 'cancelled';
  return 'failed';
}

export interface CliContext {
  io: CliIo;
  paths(): StatePaths;
  /** Write a line to stdout. */
  out(line?: string): void;
  /** Write a line to stderr. */
  err(line?: string): void;
  /** Write `svc-proxy: warning: <line>` to stderr. */
  warn(line: string): void;
  json(value: unknown): void;
  /** Exit code to return when the action finishes without throwing (default 0). */
  exitCode: number;
}

export function createContext(io: CliIo): CliContext {
  return {
    io,
    paths: () => statePaths(resolveStateDir(io.env)),
    out: (line = '') => io.stdout.write(`${line}\n`),
    err: (line = '') => io.stderr.write(`${line}\n`),
    warn: (line) => io.stderr.write(`svc-proxy: warning: ${line}\n`),
    json: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    exitCode: 0,
  };
}
