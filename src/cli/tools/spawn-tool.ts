/**
 * Start a tool as a child with this terminal (inherited stdio) and the environment built for it,
 * and report how it ended. The child stays in our process group so it keeps the terminal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export type Env = Record<string, string | undefined>;

/** Full path of an executable found on PATH (PATHEXT on Windows), or undefined. */
export function findExecutable(command: string, env: Env, platform: NodeJS.Platform = process.platform): string | undefined {
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const dirs = command.includes('/') || (platform === 'win32' && command.includes('\\')) ? [''] : (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = dir ? join(dir, command + ext) : command + ext;
      try {
        if (!statSync(candidate).isFile()) continue;
        if (platform !== 'win32') accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** The environment the tool gets: ours, its variables set, conflicting ones removed. */
export function toolEnv(base: Env, set: ReadonlyArray<readonly [string, string]>, unset: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  // Windows variable names are case-insensitive: drop any spelling of a name we set or remove.
  const names = new Set([...set.map(([k]) => k), ...unset].map((n) => (process.platform === 'win32' ? n.toUpperCase() : n)));
  for (const k of Object.keys(env)) if (names.has(process.platform === 'win32' ? k.toUpperCase() : k)) delete env[k];
  for (const [k, v] of set) env[k] = v;
  return env;
}

/**
 * One argument for a .cmd/.bat shim run through cmd.exe (Node refuses to spawn those without a
 * shell): quoted the way the C runtime splits arguments (backslashes doubled before a quote and at
 * the end), then cmd's metacharacters caret-escaped twice, because npm's shims pass their
 * arguments through cmd a second time.
 */
function quoteForCmdShim(arg: string): string {
  const runtime = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
  const caret = (s: string) => s.replace(/[()[\]%!^"`<>&|;, *?]/g, '^$&');
  return caret(caret(runtime));
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Signals passed on to the tool. SIGINT only when no terminal delivers it to the whole group. */
function forwarded(interactive: boolean): NodeJS.Signals[] {
  const list: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];
  if (process.platform !== 'win32') list.push('SIGQUIT');
  if (!interactive) list.push('SIGINT');
  return list;
}

/**
 * Run to completion. While the tool runs, Ctrl-C in the terminal reaches it directly (same
 * process group), so we ignore SIGINT ourselves instead of dying before it; other signals sent to
 * us are passed on.
 *
 * The handlers go in before the spawn: a signal that arrives after the tool has started but
 * before they are in place ends us by its default action and leaves the tool running, orphaned
 * (the likely cause of a hang seen once in a loaded `.ci/run` dry run, which left the stand-in
 * tool behind). Node runs signal handlers from the event loop, so none runs before `child` is set.
 */
export function runTool(file: string, args: readonly string[], env: Record<string, string>, opts: { interactive: boolean }): Promise<Ended> {
  let child: ChildProcess | undefined;
  const ignoreInt = () => {};
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const sig of forwarded(opts.interactive)) {
    const h = () => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill(sig);
    };
    handlers.set(sig, h);
    process.on(sig, h);
  }
  if (opts.interactive) process.on('SIGINT', ignoreInt);
  const cleanup = () => {
    for (const [sig, h] of handlers) process.off(sig, h);
    process.off('SIGINT', ignoreInt);
  };
  const shim = process.platform === 'win32' && /\.(cmd|bat)$/i.test(file);
  try {
    child = shim
      ? spawn([`"${file}"`, ...args.map(quoteForCmdShim)].join(' '), { stdio: 'inherit', env, shell: true })
      : spawn(file, [...args], { stdio: 'inherit', env });
  } catch (err) {
    cleanup();
    throw err;
  }
  const started = child;
  return new Promise((resolve, reject) => {
    started.once('error', (err) => {
      cleanup();
      reject(err);
    });
    started.once('exit', (code, signal) => {
      cleanup();
      resolve({ code, signal });
    });
  });
}
