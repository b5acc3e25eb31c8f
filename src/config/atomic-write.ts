/**
 * Atomic file replacement: readers see the old file or the new one, never half of either.
 * A path that is a symlink is written at its target (link-target.ts): the temp file goes next to
 * the target so the rename stays in one directory, and the target keeps its mode — unless the file
 * holds a secret and group or others could read it: then it is made 0600, and the caller says so.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { copyFile, open, rename, unlink } from 'node:fs/promises';
import { writeTarget, type WriteTarget } from './link-target.js';
import { OWNER_ONLY_FILE, openToOthers } from './private-mode.js';

export interface AtomicWriteOptions {
  /** File mode of the new file (default 0600: everything in the state dir is private); a symlink's target keeps its own. */
  mode?: number;
  /** The file holds a secret: one that group or others could read (a link's target too) is made 0600. */
  secret?: boolean;
  /** Keep the previous version of the file here (copied before the swap). */
  backupPath?: string;
}

export interface AtomicWriteOutcome {
  /** Where the data went: the path, or its link's target. */
  file: string;
  /** A `secret` file group or others could read had this mode; it is 0600 now. */
  tightenedFrom?: number;
}

const tempNameFor = (path: string): string => `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;

/** The new file's mode: the one asked for, a link target's own, or 0600 for a secret left open. */
function modeFor(target: WriteTarget, opts: AtomicWriteOptions): { mode: number; tightenedFrom?: number } {
  if (opts.secret && target.mode !== undefined && openToOthers(target.mode)) return { mode: OWNER_ONLY_FILE, tightenedFrom: target.mode };
  if (target.linked && target.mode !== undefined) return { mode: target.mode };
  return { mode: opts.mode ?? OWNER_ONLY_FILE };
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<AtomicWriteOutcome> {
  const target = writeTarget(path);
  const tmp = tempNameFor(target.file);
  const { mode, tightenedFrom } = modeFor(target, opts);
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
  return tightenedFrom === undefined ? { file: target.file } : { file: target.file, tightenedFrom };
}

/**
 * The same, synchronously, for a file that must be in place before this process does anything
 * else (daemon.json before the first request is answered: runtime.ts).
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = OWNER_ONLY_FILE): void {
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
