/**
 * Finding, starting and stopping the background daemon from another process (the CLI).
 */
import { spawn } from 'node:child_process';
import { open, readFile, rename, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { origin } from '../config/base-urls.js';
import { ensureStateDir, type StatePaths } from '../config/paths.js';
import { processAlive } from '../config/file-lock.js';
import { httpJson } from './http-json.js';
import { RUNTIME_FILE_CHECK_MS, isOurProcess, readPidFile, readRuntimeInfo, type RuntimeInfo } from './runtime-file.js';
import { daemonMallocEnv } from './malloc-env.js';
import { loadMallocTrim } from './malloc-trim.js';
import { DAEMON_NODE_FLAGS } from './v8-settings.js';

export interface DaemonLocation extends RuntimeInfo {
  /** http://host:port */
  origin: string;
}

/**
 * Told once when the wait for daemon.json (below) has lasted RUNTIME_WAIT_NOTICE_MS: the pid
 * daemon.pid names, and how long the wait may still last. Without it the CLI sat silent for seconds.
 */
export type RuntimeWaitNotice = (pid: number, remainingMs: number) => void;

/** A wait shorter than this is not worth a line. */
export const RUNTIME_WAIT_NOTICE_MS = 1_000;

/**
 * The daemon registered for this state dir, or null (no runtime file, or its process is gone: its
 * pid may live on in another). `onWait` is required so that every caller decides whether a wait for
 * daemon.json is said (the CLI: daemonWaitNotice) or silent (null: a loop that waits anyway, the TUI).
 */
export async function findDaemon(paths: StatePaths, onWait: RuntimeWaitNotice | null): Promise<DaemonLocation | null> {
  const info = await runtimeInfoOfRunningDaemon(paths, onWait);
  if (!info || !isOurProcess(info.pid, info.procStart)) return null;
  return { ...info, origin: origin(info.host, info.port) };
}

/**
 * daemon.json; where it is missing while daemon.pid names a running daemon, what that daemon
 * writes there shortly: the file was deleted by hand (the daemon writes it again within
 * RUNTIME_FILE_CHECK_MS), or the daemon is between taking its lock and opening its port. Without
 * the wait, `stop` said "not running" and left it running, and `start` failed on its lock.
 */
async function runtimeInfoOfRunningDaemon(paths: StatePaths, onWait: RuntimeWaitNotice | null): Promise<RuntimeInfo | null> {
  const started = Date.now();
  const deadline = started + RUNTIME_FILE_CHECK_MS + 1_000;
  let told = onWait === null;
  for (;;) {
    const info = await readRuntimeInfo(paths);
    if (info) return info;
    const pid = await readPidFile(paths);
    const now = Date.now();
    if (pid === undefined || !isOurProcess(pid) || now >= deadline) return null;
    if (!told && now - started >= RUNTIME_WAIT_NOTICE_MS) {
      told = true;
      onWait?.(pid, deadline - now);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The registered daemon, only if it answers /health. */
export async function findLiveDaemon(paths: StatePaths, onWait: RuntimeWaitNotice | null): Promise<DaemonLocation | null> {
  const daemon = await findDaemon(paths, onWait);
  return daemon && (await checkHealth(daemon.origin)) ? daemon : null;
}

export async function checkHealth(daemonOrigin: string, timeoutMs = 2_000): Promise<{ status: string; version: string } | null> {
  try {
    const res = await httpJson<{ status: string; version: string }>('GET', `${daemonOrigin}/health`, { timeoutMs });
    return res.status === 200 && res.body?.status === 'ok' ? res.body : null;
  } catch {
    return null;
  }
}

export async function readAdminToken(paths: StatePaths): Promise<string | null> {
  try {
    const token = (await readFile(paths.adminToken, 'utf8')).trim();
    return token || null;
  } catch {
    return null;
  }
}

export interface SpawnOptions {
  port?: number;
  host?: string;
  /** Log request/response bodies (redacted) for this run. */
  logBodies?: boolean;
  env?: Record<string, string | undefined>;
  /** How long to wait for /health (default 15 s). */
  timeoutMs?: number;
}

export class DaemonStartError extends Error {}

const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

/** Keep daemon.log bounded: past 5 MB it moves to daemon.log.1 at the next start. */
async function rotateDaemonLog(path: string): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (info && info.size > LOG_ROTATE_BYTES) await rename(path, `${path}.1`).catch(() => {});
}

export interface DaemonLaunch {
  /** This Node. */
  command: string;
  /** The daemon's V8 flags and `dist/daemon/main.js`. */
  args: readonly string[];
  /** What the daemon needs beyond the environment it is started in: its state dir, glibc's malloc settings. */
  env: Record<string, string>;
}

/** How the daemon process is started: by `start` here, and by a login service (cli/service) the same way. */
export function daemonLaunch(paths: StatePaths, env: Readonly<Record<string, string | undefined>>): DaemonLaunch {
  return {
    command: process.execPath,
    args: [...DAEMON_NODE_FLAGS, fileURLToPath(new URL('./main.js', import.meta.url))],
    env: { ...daemonMallocEnv(env, loadMallocTrim() !== null), SVC_PROXY_HOME: paths.dir },
  };
}

/**
 * Spawn `dist/daemon/main.js` detached, its output appended to daemon.log, and wait until it has
 * written its runtime file and answers /health. On failure the daemon's own last words are in
 * the error message.
 */
export async function spawnDaemon(paths: StatePaths, opts: SpawnOptions = {}): Promise<DaemonLocation> {
  await ensureStateDir(paths.dir);
  await rotateDaemonLog(paths.daemonLog);
  const log = await open(paths.daemonLog, 'a', 0o600);
  const logStart = (await log.stat()).size;
  const env = opts.env ?? process.env;
  const launch = daemonLaunch(paths, env);
  const args = [...launch.args];
  if (opts.port !== undefined) args.push('--port', String(opts.port));
  if (opts.host !== undefined) args.push('--host', opts.host);
  if (opts.logBodies) args.push('--log-bodies');

  const child = spawn(launch.command, args, {
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
    env: { ...env, ...launch.env },
    windowsHide: true,
  });
  await log.close();
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code ?? -1));
  child.on('error', () => (exited = -1));
  child.unref();

  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new DaemonStartError(await failureMessage(paths, logStart, `the daemon exited (code ${exited})`));
    const info = await readRuntimeInfo(paths);
    if (info && info.pid === child.pid) {
      const location = { ...info, origin: origin(info.host, info.port) };
      if (await checkHealth(location.origin, 1_000)) return location;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  if (child.pid !== undefined && processAlive(child.pid)) process.kill(child.pid, 'SIGTERM');
  throw new DaemonStartError(await failureMessage(paths, logStart, 'the daemon did not answer /health in time'));
}

async function failureMessage(paths: StatePaths, from: number, what: string): Promise<string> {
  const text = await readFile(paths.daemonLog, 'utf8').catch(() => '');
  const lines = text.slice(from).trim().split('\n').filter(Boolean).slice(-8);
  const tail = lines.map((l) => `  ${l.replace(/^\S+ (info |warn |error) ?/, '')}`).join('\n');
  return `${what}.${tail ? `\n${tail}` : ''}\n(daemon log: ${paths.daemonLog})`;
}

export interface StopResult {
  pid: number;
  /** Had to be killed after the drain timeout. */
  forced: boolean;
}

/**
 * Ask the daemon to stop (admin API, falling back to SIGTERM) and wait for the process to end;
 * after `timeoutMs` it is killed. Returns null when no daemon was running. No default: the wait
 * must cover the daemon's drain (the CLI's drainBudget), or a long stream is killed mid-answer.
 */
export async function stopDaemon(paths: StatePaths, timeoutMs: number, onWait: RuntimeWaitNotice | null): Promise<StopResult | null> {
  const daemon = await findDaemon(paths, onWait);
  if (!daemon) return null;
  const token = await readAdminToken(paths);
  let asked = false;
  if (token) {
    try {
      const res = await httpJson('POST', `${daemon.origin}/admin/shutdown`, { headers: { authorization: `Bearer ${token}` }, timeoutMs: 3_000 });
      asked = res.status === 202;
    } catch {
      asked = false;
    }
  }
  if (!asked) {
    // Signal only a process that is still svc-proxy: after a crash the pid may belong to a stranger.
    if (!isOurProcess(daemon.pid, daemon.procStart)) return null;
    try {
      process.kill(daemon.pid, 'SIGTERM');
    } catch {
      return { pid: daemon.pid, forced: false };
    }
  }
  if (await gone(daemon, timeoutMs)) return { pid: daemon.pid, forced: false };
  try {
    process.kill(daemon.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  // the kill takes effect a moment later: `restart` must not find the old daemon still there
  await gone(daemon, KILL_WAIT_MS);
  return { pid: daemon.pid, forced: true };
}

/** How long a killed daemon may take to be gone. */
const KILL_WAIT_MS = 5_000;

/** Whether the daemon's process ends within `ms`. */
async function gone(daemon: RuntimeInfo, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!isOurProcess(daemon.pid, daemon.procStart)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
