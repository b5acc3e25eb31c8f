/**
 * Reading the JSONL files back, newest line first, in bounded memory: chunks from the end of each
 * file, split at \n bytes (never inside a UTF-8 sequence), one JSON.parse per line. Lines that do
 * not parse (a crash mid-write) are skipped.
 */
import { open } from 'node:fs/promises';
import type { RequestLogEntry } from './entry.js';
import { listLogFiles } from './paths.js';

const CHUNK = 64 * 1024;
const LF = 0x0a;

/** Calls `onLine` for each non-empty line from the last to the first; stops when it returns false. */
export async function readLinesReverse(path: string, onLine: (line: string) => boolean): Promise<boolean> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  try {
    let pos = (await fh.stat()).size;
    let tail: Buffer = Buffer.alloc(0); // bytes after the last \n seen so far (start of a line not yet complete)
    while (pos > 0) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const chunk = Buffer.allocUnsafe(len);
      await fh.read(chunk, 0, len, pos);
      const buf = tail.length ? Buffer.concat([chunk, tail]) : chunk;
      let end = buf.length;
      for (let i = buf.length - 1; i >= 0; i--) {
        if (buf[i] !== LF) continue;
        if (end > i + 1 && !onLine(buf.toString('utf8', i + 1, end))) return false;
        end = i;
      }
      tail = Buffer.from(buf.subarray(0, end));
    }
    if (tail.length > 0 && !onLine(tail.toString('utf8'))) return false;
    return true;
  } finally {
    await fh.close();
  }
}

function parseEntry(line: string): RequestLogEntry | undefined {
  try {
    const v = JSON.parse(line) as RequestLogEntry;
    if (v && typeof v === 'object' && typeof v.id === 'string' && typeof v.time === 'string' && Array.isArray(v.attempts)) return v;
  } catch {
    // A torn line from a crash mid-write.
  }
  return undefined;
}

export interface ScanOptions {
  /** Skip rotated files whose newest entry is older than this (epoch ms). */
  since?: number;
  /** Ids already seen (e.g. still in the in-memory ring). */
  skipIds?: ReadonlySet<string>;
}

/**
 * Entries are appended as requests finish, so the files are in order of arrival + latency. Once
 * an entry finished before `since`, every entry above it in the files arrived before `since` too.
 * The margin covers a clock set back a little (NTP) and the write batching.
 */
const FINISH_ORDER_SLACK_MS = 60_000;

/** When the request of an entry finished (epoch ms), or NaN for an unreadable time. */
function finishedAt(e: RequestLogEntry): number {
  return Date.parse(e.time) + (typeof e.latencyMs === 'number' ? e.latencyMs : 0);
}

/** Visits entries in all log files, newest first, until `visit` returns false. */
export async function scanFiles(dir: string, visit: (e: RequestLogEntry) => boolean, opts: ScanOptions = {}): Promise<void> {
  const stopBefore = opts.since === undefined ? undefined : opts.since - FINISH_ORDER_SLACK_MS;
  let past = false;
  for (const file of await listLogFiles(dir)) {
    // A file rotated before `since` holds only entries that arrived before it.
    if (opts.since !== undefined && file.rotatedAt !== undefined && file.rotatedAt < opts.since) break;
    const more = await readLinesReverse(file.path, (line) => {
      const e = parseEntry(line);
      if (!e || opts.skipIds?.has(e.id)) return true;
      if (stopBefore !== undefined && finishedAt(e) < stopBefore) {
        past = true;
        return false;
      }
      return visit(e);
    });
    if (!more || past) return;
  }
}
