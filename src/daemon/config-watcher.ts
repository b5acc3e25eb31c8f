/**
 * Notices hand edits of config.json. Editors and our own atomic writes replace the file, so the
 * directory is watched (a watch on the file itself would follow the old inode). Events are
 * debounced; the store tells real changes from our own writes by comparing text.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export function watchConfigFile(file: string, onChange: () => void, debounceMs = 150): { close(): void } {
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    });
    watcher.on('error', () => {});
  } catch {
    watcher = undefined;
  }
  // Safety net where directory watching is unreliable (network filesystems): poll slowly too.
  const poll = setInterval(onChange, 5_000);
  poll.unref();
  return {
    close() {
      clearTimeout(timer);
      clearInterval(poll);
      watcher?.close();
    },
  };
}
