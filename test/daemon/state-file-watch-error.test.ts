import { writeFileSync, type FSWatcher } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDirectoryWatches, watchStateFile } from '../../src/daemon/state-file-watcher.js';

// the real fs.watch, its watchers kept so that one can be made to fail
const made = vi.hoisted(() => [] as FSWatcher[]);
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const watch = (...args: Parameters<typeof fs.watch>): FSWatcher => {
    const watcher = fs.watch(...args);
    made.push(watcher);
    return watcher;
  };
  return { ...fs, watch };
});

let dir: string;
const closers: { close(): void }[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-watch-error-'));
  made.length = 0;
});
afterEach(async () => {
  for (const c of closers.splice(0)) c.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a directory watch that fails', () => {
  it('is dropped, and the next file in that folder gets a new watch that reports its edits', async () => {
    const config = join(dir, 'config.json');
    const credentials = join(dir, 'credentials.json');
    await writeFile(config, '{}');
    await writeFile(credentials, '{}');
    const before = openDirectoryWatches();
    closers.push(watchStateFile(config, () => {}, { pollMs: 60_000, debounceMs: 10 }));
    expect(made).toHaveLength(1);
    expect(openDirectoryWatches()).toBe(before + 1);

    made[0]!.emit('error', Object.assign(new Error('watch failed'), { code: 'EIO' }));
    expect(openDirectoryWatches()).toBe(before);

    const onCredentials = vi.fn();
    closers.push(watchStateFile(credentials, onCredentials, { pollMs: 60_000, debounceMs: 10 }));
    expect(made).toHaveLength(2);
    expect(openDirectoryWatches()).toBe(before + 1);
    writeFileSync(credentials, '{"version":1}');
    await vi.waitFor(() => expect(onCredentials).toHaveBeenCalledTimes(1));
  });
});
