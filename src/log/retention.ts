/** Deletes rotated log files older than the retention window. The current file is never touched. */
import { unlink } from 'node:fs/promises';
import { listLogFiles } from './paths.js';

const DAY_MS = 86_400_000;

/**
 * `retentionDays` counts from each file's rotation time (its newest entry). 0 keeps no rotated
 * files at all: only the current file remains. Returns the names deleted.
 */
export async function pruneRotated(dir: string, retentionDays: number, now: number = Date.now()): Promise<string[]> {
  const cutoff = now - retentionDays * DAY_MS;
  const deleted: string[] = [];
  for (const f of await listLogFiles(dir)) {
    if (f.rotatedAt === undefined || f.rotatedAt >= cutoff) continue;
    try {
      await unlink(f.path);
      deleted.push(f.name);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return deleted;
}
