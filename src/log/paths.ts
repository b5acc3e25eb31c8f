/**
 * Where the request log lives and how rotated files are named. Rotated names carry the rotation
 * time, so they sort chronologically by name and retention needs no stat().
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

export const CURRENT_LOG = 'requests.jsonl';

/** The log folder inside the state directory. */
export function logsDir(stateDir: string): string {
  return join(stateDir, 'logs');
}

/** `requests-2025-01-31T12-00-00.123Z.jsonl` (colons are not allowed in Windows file names). */
export function rotatedName(at: Date, attempt = 0): string {
  const stamp = at.toISOString().replace(/:/g, '-');
  return attempt === 0 ? `requests-${stamp}.jsonl` : `requests-${stamp}-${attempt}.jsonl`;
}

const ROTATED_RE = /^requests-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})Z(?:-\d+)?\.jsonl$/;

/** Rotation time (epoch ms) of a rotated file name, or undefined for any other name. */
export function rotatedAt(name: string): number | undefined {
  const m = ROTATED_RE.exec(name);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export interface LogFile {
  path: string;
  name: string;
  /** Rotation time; undefined for the current file (it holds the newest entries). */
  rotatedAt?: number;
}

/** The current file and every rotated file, newest first. A missing folder is an empty log. */
export async function listLogFiles(dir: string): Promise<LogFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const rotated: LogFile[] = [];
  let current: LogFile | undefined;
  for (const name of names) {
    if (name === CURRENT_LOG) {
      current = { path: join(dir, name), name };
      continue;
    }
    const at = rotatedAt(name);
    if (at !== undefined) rotated.push({ path: join(dir, name), name, rotatedAt: at });
  }
  // Same-millisecond rotations get a -N suffix; name order breaks the tie correctly.
  rotated.sort((a, b) => b.rotatedAt! - a.rotatedAt! || (a.name < b.name ? 1 : -1));
  return current ? [current, ...rotated] : rotated;
}
