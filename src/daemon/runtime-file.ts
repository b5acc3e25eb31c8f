/**
 * daemon.json (pid, host, port, start time, version) and daemon.pid (just the pid). The pid file is
 * created exclusively, so it doubles as the single-instance lock.
 */
import { readFile, open, stat, unlink } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { writeFileAtomic, writeFileAtomicSync } from '../config/atomic-write.js';
import { processAlive } from '../config/file-lock.js';
import type { StatePaths } from '../config/paths.js';

export interface RuntimeInfo {
  pid: number;
  host: string;
  port: number;
  startedAt: string;
  version: string;
  /** The kernel's start time of the daemon's process (processStartTime), where it can be read. */
  procStart?: string;
}

export class AlreadyRunningError extends Error {
  constructor(readonly pid: number) {
    super(`svc-proxy is already running (pid ${pid}).`);
    this.name = 'AlreadyRunningError';
  }
}

/** How often a running daemon writes daemon.pid and daemon.json again where they were deleted. */
export const RUNTIME_FILE_CHECK_MS = 5_000;

/** The pid daemon.pid names, or undefined (no file, or not a pid yet). */
export async function readPidFile(paths: Pick<StatePaths, 'pidFile'>): Promise<number | undefined> {
  const pid = Number((await readFile(paths.pidFile, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export async function readRuntimeInfo(paths: Pick<StatePaths, 'runtimeFile'>): Promise<RuntimeInfo | null> {
  try {
    const info = JSON.parse(await readFile(paths.runtimeFile, 'utf8')) as RuntimeInfo;
    return Number.isInteger(info.pid) && Number.isInteger(info.port) ? info : null;
  } catch {
    return null;
  }
}

/**
 * When the kernel started process `pid` (Linux: clock ticks since boot, field 22 of
 * /proc/<pid>/stat), or undefined where that cannot be read. A pid is reused after its process
 * ends; pid and start time together name one process.
 */
export function processStartTime(pid: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) is in parentheses and may hold spaces and parentheses itself
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Is the daemon a runtime file names still running? Its pid may have been reused since it died:
 * by any program after a crash, or by the next daemon itself after a container restart (pid 1
 * again), so `stop` must not signal it and `start` must not wait for it. Where the daemon recorded
 * its process start time, only the process with that pid and start time is it. Files without one
 * (written by an older version): on Linux the command line must look like a daemon's; elsewhere a
 * live pid is trusted, and so is this very process (a daemon embedded in it: tests).
 */
export function isOurProcess(pid: number, procStart?: string): boolean {
  if (pid !== process.pid && !processAlive(pid)) return false;
  if (procStart !== undefined) {
    const started = processStartTime(pid);
    if (started !== undefined) return started === procStart;
  }
  if (pid === process.pid || process.platform !== 'linux') return true;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /svc-proxy|daemon[\\/]main\.(js|ts)/.test(cmdline);
  } catch {
    return true;
  }
}

/** Take the single-instance lock (daemon.pid). Throws AlreadyRunningError; clears a stale file. */
export async function claimPidFile(paths: Pick<StatePaths, 'pidFile' | 'runtimeFile'>): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(paths.pidFile, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const text = await readFile(paths.pidFile, 'utf8').catch(() => '');
    const pid = Number(text.trim());
    if (Number.isInteger(pid) && pid > 0) {
      // daemon.json says when that process started, if it is the same daemon's
      const info = await readRuntimeInfo(paths);
      if (isOurProcess(pid, info?.pid === pid ? info.procStart : undefined)) throw new AlreadyRunningError(pid);
    }
    if (text.trim() === '' && attempt === 0) {
      // Another daemon may be between creating and writing the file: look again shortly.
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    await unlink(paths.pidFile).catch(() => {});
  }
  throw new Error(`Could not create ${paths.pidFile}.`);
}

const runtimeText = (info: RuntimeInfo): string => `${JSON.stringify(info, null, 2)}\n`;

/**
 * Write daemon.json before anything else can run: the daemon calls it as the port opens, so no
 * client gets an answer (and then runs `svc-proxy status`) while the file is not there yet.
 */
export function writeRuntimeInfoNow(paths: Pick<StatePaths, 'runtimeFile'>, info: RuntimeInfo): void {
  writeFileAtomicSync(paths.runtimeFile, runtimeText(info));
}

/** Remove daemon.pid and daemon.json, but only while they still describe `pid`. */
export async function releaseRuntimeFiles(paths: Pick<StatePaths, 'pidFile' | 'runtimeFile'>, pid: number): Promise<void> {
  const info = await readRuntimeInfo(paths);
  if (info?.pid === pid) await unlink(paths.runtimeFile).catch(() => {});
  const text = await readFile(paths.pidFile, 'utf8').catch(() => '');
  if (Number(text.trim()) === pid) await unlink(paths.pidFile).catch(() => {});
}

/**
 * Write daemon.pid and daemon.json again where they were deleted while the daemon runs (a cleanup
 * by hand, a tmp cleaner): without them every command took the daemon for stopped, and `start`
 * could neither start another nor stop this one. A file that exists is left alone, whoever wrote
 * it. Returns the names written.
 */
export async function restoreRuntimeFiles(paths: Pick<StatePaths, 'pidFile' | 'runtimeFile'>, info: RuntimeInfo): Promise<string[]> {
  const written: string[] = [];
  try {
    const handle = await open(paths.pidFile, 'wx', 0o600);
    await handle.writeFile(`${info.pid}\n`);
    await handle.close();
    written.push('daemon.pid');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const missing = await stat(paths.runtimeFile).then(
    () => false,
    (err: NodeJS.ErrnoException) => err.code === 'ENOENT',
  );
  if (missing) {
    await writeFileAtomic(paths.runtimeFile, runtimeText(info), { mode: 0o600 });
    written.push('daemon.json');
  }
  return written;
}
