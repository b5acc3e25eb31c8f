/**
 * A cross-process lock on a file path (O_EXCL lock file), so the CLI and the daemon never lose each
 * other's writes. A lock left behind by a dead process, or older than `staleMs`, is broken.
 * Waiters take it in turn (lock-queue.ts), so none waits much longer than the sections ahead of it.
 */
import { watch } from 'node:fs';
import { access, open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { LockQueue } from './lock-queue.js';
import { processAlive } from './process-alive.js';

export { processAlive };

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock file older than this is considered abandoned (default 30 s). */
  staleMs?: number;
}

/** The first in line looks again at least this often: a watch can miss (network file systems). */
const HEAD_LONGEST_MS = 10;
/**
 * The others look again at least this often: a watch can miss, and a ticket left ahead by a
 * process that died goes without an event (the look removes it).
 */
const LINE_LONGEST_MS = 50;

export class LockTimeoutError extends Error {
  constructor(lockPath: string, timeoutMs: number) {
    super(`Timed out after ${timeoutMs} ms waiting for the lock ${lockPath}; if no svc-proxy process is running, delete that file.`);
    this.name = 'LockTimeoutError';
  }
}

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  await acquire(lockPath, opts.timeoutMs ?? 10_000, opts.staleMs ?? 30_000);
  try {
    return await fn();
  } finally {
    await unlink(lockPath).catch(() => {});
  }
}

async function acquire(lockPath: string, timeoutMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const queue = new LockQueue(`${lockPath}.queue`);
  try {
    for (;;) {
      const ourTurn = await queue.ourTurn();
      if (ourTurn && (await tryTake(lockPath, staleMs))) return;
      if (!queue.waiting) {
        await queue.join();
        continue;
      }
      if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, timeoutMs);
      // Each is told when the one thing that can move it on happens, without polling: the first
      // in line when the lock file goes, the others when the ticket just ahead of theirs goes
      // (a watch of that one file: the whole line's directory would wake every waiter at every
      // ticket taken, given up or touched, which costs more CPU than the old 10–20 ms poll).
      if (ourTurn) await released(lockPath, HEAD_LONGEST_MS);
      else if (queue.ahead) await released(queue.ahead, LINE_LONGEST_MS);
      else await released(lockPath, HEAD_LONGEST_MS); // just (re)joined: the next look finds who is ahead
    }
  } finally {
    await queue.leave();
  }
}

/** One try at the lock file; a lock left by a dead process (or older than `staleMs`) is broken. */
async function tryTake(lockPath: string, staleMs: number): Promise<boolean> {
  for (;;) {
    let handle;
    try {
      handle = await open(lockPath, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (handle) {
      try {
        await handle.writeFile(`${process.pid}@${hostname()}\n`);
      } catch (err) {
        // e.g. a full disk: creating the file worked, writing the owner did not. Leave no lock
        // (nor an open descriptor) behind, or every later change waits for it to go stale.
        await handle.close().catch(() => {});
        await unlink(lockPath).catch(() => {});
        throw err;
      }
      await handle.close();
      return true;
    }
    if (!(await isAbandoned(lockPath, staleMs))) return false;
    await unlink(lockPath).catch(() => {});
  }
}

async function isAbandoned(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([stat(lockPath), readFile(lockPath, 'utf8')]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const [pidText, host] = text.trim().split('@');
    const pid = Number(pidText);
    if (host === hostname() && Number.isInteger(pid) && pid > 0 && !processAlive(pid)) return true;
    return false;
  } catch {
    // Vanished between our open and stat (released): retry at once. A lock file that is still
    // empty (being written) is not abandoned.
    return false;
  }
}

/** Resolves when the file (the lock, or a ticket in line) is removed, replaced or touched, or after `maxMs` at the latest. */
async function released(lockPath: string, maxMs: number): Promise<void> {
  let watcher;
  try {
    watcher = watch(lockPath, { persistent: false });
  } catch {
    return; // gone already
  }
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      watcher.on('change', done);
      watcher.on('error', done);
      // removed between our try and the watch: no event will come
      access(lockPath).catch(done);
    });
  } finally {
    watcher.close();
  }
}
