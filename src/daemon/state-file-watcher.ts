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
 *
 * A file that is a symlink (a dotfile manager's) is edited where it points: a watch of the link's
 * directory does not see that, so the target's directory is watched too, followed again whenever
 * the file is reported changed (the link may point elsewhere now). Files in one directory share
 * one watch of it.
 */
import { realpathSync, watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';

/** One directory watch, and who listens for which name in it. */
interface DirectoryWatch {
  watcher: FSWatcher;
  listeners: Map<string, Set<() => void>>;
}
const directoryWatches = new Map<string, DirectoryWatch>();

/** Call `onEvent` on every event about `name` in `dir` (or about no name); returns the unsubscribe. */
function onEventsFor(dir: string, name: string, onEvent: () => void): () => void {
  let entry = directoryWatches.get(dir);
  if (!entry) {
    const listeners = new Map<string, Set<() => void>>();
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_event, changed) => {
        const named = changed === null ? [...listeners.values()] : [listeners.get(changed)];
        for (const set of named) for (const listener of set ?? []) listener();
      });
    } catch {
      return () => {}; // no watch here (gone, or not supported): the poll alone
    }
    // a watch that failed reports nothing more: forgotten, so the next subscriber opens a new one
    // (those subscribed now keep their poll)
    watcher.on('error', () => {
      watcher.close();
      if (directoryWatches.get(dir)?.watcher === watcher) directoryWatches.delete(dir);
    });
    entry = { watcher, listeners };
    directoryWatches.set(dir, entry);
  }
  const { listeners, watcher } = entry;
  const set = listeners.get(name) ?? new Set();
  listeners.set(name, set.add(onEvent));
  return () => {
    set.delete(onEvent);
    if (set.size === 0) listeners.delete(name);
    if (listeners.size > 0 || directoryWatches.get(dir)?.watcher !== watcher) return;
    watcher.close();
    directoryWatches.delete(dir);
  };
}

/** How many directory watches are open (for tests: one per directory, however many files in it). */
export function openDirectoryWatches(): number {
  return directoryWatches.size;
}

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
  const debounceMs = opts.debounceMs ?? 150;
  let timer: NodeJS.Timeout | undefined;
  let unwatch: (() => void) | undefined;
  /** The watch of a symlink target's directory, and the target it was opened for. */
  let target: { path: string; unwatch: () => void } | undefined;

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
      if (unwatch) followTarget();
      onChange();
    });
  };

  const onEvent = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      forced = true;
      look();
    }, debounceMs);
  };

  /**
   * Watch the directory the file resolves to as well, when that is not the file's own. At once
   * (sync), so an edit right after the watch began is seen; it runs only then and on a report.
   */
  const followTarget = (): void => {
    let resolved: string;
    let ownDir: string;
    try {
      resolved = realpathSync(file);
      ownDir = realpathSync(dirname(file));
    } catch {
      return; // not there (yet): followed again when it is reported changed
    }
    if (resolved === target?.path) return;
    target?.unwatch();
    target = undefined;
    if (dirname(resolved) === ownDir && basename(resolved) === basename(file)) return;
    target = { path: resolved, unwatch: onEventsFor(dirname(resolved), basename(resolved), onEvent) };
  };

  if (opts.watchDirectory !== false) {
    unwatch = onEventsFor(dirname(file), basename(file), onEvent);
    followTarget();
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
      unwatch?.();
      target?.unwatch();
    },
  };
}
