/**
 * `svc-proxy start --foreground` in an interactive terminal: the daemon runs in this process and
 * the TUI takes the screen. The daemon's own log goes to daemon.log (as for a background daemon)
 * so it never scribbles over the UI. Quitting the TUI stops the daemon; the daemon stopping (a
 * signal, `svc-proxy stop`) closes the TUI.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StatePaths } from '../config/paths.js';

/** Appends daemon log lines to `file` (0600, like the state dir's other files). */
export function daemonLogFile(file: string): { write(line: string): void; close(): Promise<void> } {
  // The daemon creates the state dir too, but the file is opened before it starts.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const out = createWriteStream(file, { flags: 'a', mode: 0o600 });
  // A log file that cannot be written must not take the daemon down.
  out.on('error', () => {});
  return {
    write: (line) => void out.write(line),
    close: () => new Promise((resolve) => out.end(() => resolve())),
  };
}

export interface ForegroundDaemon {
  stop(reason?: string): Promise<void>;
  stopped: Promise<void>;
}

export async function runForegroundTui(opts: {
  paths: StatePaths;
  env: Record<string, string | undefined>;
  daemon: ForegroundDaemon;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}): Promise<void> {
  const { runTui } = await import('./run.js');
  await runTui({
    paths: opts.paths,
    env: opts.env,
    stdin: opts.stdin,
    stdout: opts.stdout,
    foreground: true,
    notice: `daemon log: ${opts.paths.daemonLog}`,
    closeWhen: opts.daemon.stopped,
  });
  await opts.daemon.stop('the TUI was closed');
  await opts.daemon.stopped;
}
