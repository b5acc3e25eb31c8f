/**
 * daemon.json (pid, host, port, start time, version) and daemon.pid (just the pid). The pid file is
 * created exclusively, so it doubles as the single-instance lock.
 */
import { readFile, open, unlink } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../config/atomic-write.js';
import { processAlive } from '../config/file-lock.js';
import type { StatePaths } from '../config/paths.js';

export interface RuntimeInfo {
  pid: number;
  host: string;
  port: number;
  startedAt: string;
  version: string;
}

export class AlreadyRunningError extends Error {
  constructor(readonly pid: number) {
    super(`svc-proxy is already running (pid ${pid}).`);
    this.name = 'AlreadyRunningError';
  }
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
 * On Linux, make sure a live pid is still an svc-proxy process (pids are reused after a crash) so
 * that `stop` never signals a stranger. Elsewhere a live pid is trusted.
 */
export function isOurProcess(pid: number): boolean {
  if (!processAlive(pid)) return false;
  if (process.platform !== 'linux') return true;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /svc-proxy|daemon[\\/]main\.(js|ts)/.test(cmdline);
  } catch {
    return true;
  }
}

/** Take the single-instance lock (daemon.pid). Throws AlreadyRunningError; clears a stale file. */
export async function claimPidFile(paths: Pick<StatePaths, 'pidFile'>): Promise<void> {
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
    // Our own pid: a daemon already runs in this very process (embedding, tests).
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && isOurProcess(pid))) throw new AlreadyRunningError(pid);
    if (text.trim() === '' && attempt === 0) {
      // Another daemon may be between creating and writing the file: look again shortly.
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    await unlink(paths.pidFile).catch(() => {});
  }
  throw new Error(`Could not create ${paths.pidFile}.`);
}

export async function writeRuntimeInfo(paths: Pick<StatePaths, 'runtimeFile'>, info: RuntimeInfo): Promise<void> {
  await writeFileAtomic(paths.runtimeFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
}

/** Remove daemon.pid and daemon.json, but only while they still describe `pid`. */
export async function releaseRuntimeFiles(paths: Pick<StatePaths, 'pidFile' | 'runtimeFile'>, pid: number): Promise<void> {
  const info = await readRuntimeInfo(paths);
  if (info?.pid === pid) await unlink(paths.runtimeFile).catch(() => {});
  const text = await readFile(paths.pidFile, 'utf8').catch(() => '');
  if (Number(text.trim()) === pid) await unlink(paths.pidFile).catch(() => {});
}
