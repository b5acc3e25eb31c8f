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

/** An error the CLI reports as a plain message with an exit code (1 = failed, 2 = usage). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export interface CliContext {
  io: CliIo;
  paths(): StatePaths;
  /** Write a line to stdout. */
  out(line?: string): void;
  /** Write a line to stderr. */
  err(line?: string): void;
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
    json: (value) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    exitCode: 0,
  };
}
