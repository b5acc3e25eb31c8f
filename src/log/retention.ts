/**
 * Deletes rotated log files past the retention window, and the oldest ones past the total size
 * cap. The current file is never touched.
 *
 * The cap exists for `logBodies`: a coding agent sends its whole conversation with every turn
 * (100–500 KB), so a day of logged bodies can reach a gigabyte, and the age window alone would let
 * two weeks of them fill the disk.
 */
import { stat, unlink } from 'node:fs/promises';
import { listLogFiles } from './paths.js';

const DAY_MS = 86_400_000;

export interface RetentionLimits {
  /** Days to keep a rotated file, counted from its rotation time (its newest entry); 0 keeps none. */
  retentionDays: number;
  /** Bytes all log files together may take; the oldest rotated files go first. */
  maxTotalBytes: number;
  /** Size at which the current file rotates: room kept for it to fill, so the total holds between prunes. */
  currentMaxBytes: number;
}

/** Size of a file, or 0 for one deleted meanwhile (by hand, or by another prune). */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}

/** Returns the names deleted. */
export async function pruneRotated(dir: string, limits: RetentionLimits, now: number = Date.now()): Promise<string[]> {
  const cutoff = now - limits.retentionDays * DAY_MS;
  const deleted: string[] = [];
  const files = await listLogFiles(dir);
  const current = files[0]?.rotatedAt === undefined ? files[0] : undefined;
  // pruning runs at start and at rotation only, so the current file is counted at the size it may grow to
  let total = Math.max(current ? await sizeOf(current.path) : 0, limits.currentMaxBytes);
  let full = false;
  // newest first: once a file would pass the cap, it and every older file go (no gap in the history)
  for (const f of files) {
    if (f === current) continue;
    const size: number = full ? 0 : await sizeOf(f.path);
    full ||= total + size > limits.maxTotalBytes;
    if (!full && f.rotatedAt! >= cutoff) {
      total += size;
      continue;
    }
    try {
      await unlink(f.path);
      deleted.push(f.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return deleted;
}
