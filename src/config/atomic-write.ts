/**
 * Atomic file replacement: readers see the old file or the new one, never half of either.
 * A path that is a symlink is written at its target (link-target.ts): the temp file goes next to
 * the target so the rename stays in one directory, and the target keeps its mode.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, open, rename, unlink } from 'node:fs/promises';
import { writeTarget, type WriteTarget } from './link-target.js';

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0600: everything in the state dir is private); a symlink's target keeps its own. */
  mode?: number;
  /** Keep the previous version of the file here (copied before the swap). */
  backupPath?: string;
}

const tempNameFor = (path: string): string => `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;

/** The new file's mode: a link target's own, else the one asked for. */
function modeFor(target: WriteTarget, opts: AtomicWriteOptions): { mode: number } {
  if (target.linked && target.mode !== undefined) return { mode: target.mode };
  return { mode: opts.mode ?? 0o600 };
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const target = writeTarget(path);
  const tmp = tempNameFor(target.file);
  const { mode } = modeFor(target, opts);
  const handle = await open(tmp, 'wx', mode);
  try {
    // open's mode is narrowed by the umask: a target's own mode is put back as it was
    if (target.linked) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await handle.close();
  try {
    if (opts.backupPath) await backup(target.file, opts.backupPath);
    await rename(tmp, target.file);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/**
 * The same, synchronously, for a file that must be in place before this process does anything
 * else (daemon.json before the first request is answered: runtime.ts).
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  const target = writeTarget(path);
  const tmp = tempNameFor(target.file);
  const fileMode = modeFor(target, { mode }).mode;
  const fd = openSync(tmp, 'wx', fileMode);
  try {
    try {
      if (target.linked) fchmodSync(fd, fileMode);
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target.file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

async function backup(path: string, backupPath: string): Promise<void> {
  const tmp = tempNameFor(backupPath);
  try {
    await copyFile(path, tmp);
  } catch (err) {
    await unlink(tmp).catch(() => {}); // a full disk may leave a partial copy
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // first write: nothing to keep
    throw err;
  }
  await rename(tmp, backupPath);
}
