/**
 * Notices hand edits of a file in the state directory: config.json, and credentials.json (the
 * credentials kept without a keychain). Editors and our own atomic writes replace the file, so the
 * directory is watched (a watch on the file itself would follow the old inode). Events are
 * debounced; the config store tells real changes from our own writes by comparing text (a
 * credentials re-read after our own write just reads the same values again).
 *
 * Where directory watching is unreliable (network filesystems) a slow poll backs it up. The poll
 * is a stat: only when the file's inode, size or times moved does it ask for a reload. A reload
 * of config.json takes the config lock (a lock file created and removed) and reads the file,
 * eight trips through libuv's thread pool and two directory writes; done every 5 s, that kept an
 * idle daemon writing to the disk for ever.
 *
 * One change, one report: the watch and the poll share the signature last reported, so an edit
 * the watch reported is not reported again by the poll's next look.
 */
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

export interface StateFileWatchOptions {
  /** Quiet time after a watch event before the reload (default 150 ms). */
  debounceMs?: number;
  /** How often the file is looked at by stat (default 5 s). */
  pollMs?: number;
  /** Watch the directory too (default true; tests turn it off to exercise the poll alone). */
  watchDirectory?: boolean;
}

export interface StateFileWatch extends StateFileWatchOptions {
  /**
   * The file's signature taken just before the caller read it: the first look reports only if the
   * file moved since. Without it the first look always reports (one reload for nothing).
   */
  baseline?: string;
}

/** What a stat tells about the file; a new value means it may have changed. */
export async function fileSignature(file: string): Promise<string> {
  try {
    const s = await stat(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch (err) {
    return `absent:${(err as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

export function watchStateFile(file: string, onChange: () => void, opts: StateFileWatch = {}): { close(): void } {
  const name = basename(file);
  const debounceMs = opts.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;

  // The signature last reported, taken before the reload reads the file; at first the one taken
  // before the daemon's own load, so an edit between that load and the start of the watch is
  // still seen where the watch does not work. With no baseline the first look reloads once. A
  // watch report records it too, or the poll would see the same edit as new and reload again.
  let seen: string | undefined = opts.baseline;
  let looking = false;
  /** A watch event's debounce ran out while a look was under way: one more look, that reports. */
  let forced = false;
  let closed = false;
  // One look at a time, so a poll and a watch event never both report the same edit. A watch
  // event always reports, even when the signature did not move: two same-size edits within one
  // tick of the file clock look alike to stat, and the second must not be lost.
  const look = (): void => {
    if (looking) return;
    looking = true;
    const force = forced;
    forced = false;
    void fileSignature(file).then((signature) => {
      looking = false;
      // a watch event waiting out its debounce reports with a look of its own
      if (closed || timer !== undefined) return;
      if (forced) return look();
      if (!force && signature === seen) return;
      seen = signature;
      onChange();
    });
  };

  if (opts.watchDirectory !== false) {
    try {
      watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== name) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          timer = undefined;
          forced = true;
          look();
        }, debounceMs);
      });
      watcher.on('error', () => {});
    } catch {
      watcher = undefined;
    }
  }

  const poll = setInterval(() => {
    if (timer === undefined) look();
  }, opts.pollMs ?? 5_000);
  poll.unref();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(poll);
      watcher?.close();
    },
  };
}
