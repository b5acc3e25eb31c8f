import { writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileSignature, openDirectoryWatches, watchStateFile } from '../../src/daemon/state-file-watcher.js';

let dir: string;
let file: string;
const closers: { close(): void }[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-watch-'));
  file = join(dir, 'config.json');
  await writeFile(file, '{"version":2}');
});
afterEach(async () => {
  for (const c of closers.splice(0)) c.close();
  await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The poll alone (as where directory watching does not work), looking every 10 ms. */
function pollOnly(onChange: () => void): void {
  closers.push(watchStateFile(file, onChange, { pollMs: 10, watchDirectory: false }));
}

describe('config watcher', () => {
  it('the poll reloads once at its first look, then not again while the file is unchanged', async () => {
    const onChange = vi.fn();
    pollOnly(onChange);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    await sleep(150); // ~15 more looks
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('given the signature taken before the caller read the file, the first look reports only an edit made since', async () => {
    const unchanged = vi.fn();
    closers.push(watchStateFile(file, unchanged, { pollMs: 10, watchDirectory: false, baseline: await fileSignature(file) }));
    await sleep(150); // ~15 looks
    expect(unchanged).not.toHaveBeenCalled();

    // edited after the caller's read, before its watch began (a new inode, as an editor's save)
    const baseline = await fileSignature(file);
    await writeFile(join(dir, 'config.json.tmp'), '{"version":2}');
    await rename(join(dir, 'config.json.tmp'), file);
    const edited = vi.fn();
    closers.push(watchStateFile(file, edited, { pollMs: 10, watchDirectory: false, baseline }));
    await vi.waitFor(() => expect(edited).toHaveBeenCalledTimes(1));
    await sleep(100);
    expect(edited).toHaveBeenCalledTimes(1);
  });

  it('the poll notices an edit in place, a replaced file and a removed one', async () => {
    const onChange = vi.fn();
    pollOnly(onChange);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));

    // same inode, new size, in one write: writeFile's truncate first would show the poll an
    // empty file in between (one more change)
    const handle = await open(file, 'r+');
    await handle.write('{"version":2,"settings":{}}', 0);
    await handle.close();
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));

    await writeFile(join(dir, 'config.json.tmp'), '{"version":2,"settings":{}}'); // same size, new inode
    await rename(join(dir, 'config.json.tmp'), file);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(3));

    await rm(file);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(4));
    await sleep(100);
    expect(onChange).toHaveBeenCalledTimes(4);
  });

  it('the directory watch reports an edit without waiting for the poll, once per burst of events', async () => {
    const onChange = vi.fn();
    closers.push(watchStateFile(file, onChange, { pollMs: 60_000, debounceMs: 20 }));
    // one burst: both writes before the event loop reads the first event (awaited writes could
    // be more than the 20 ms debounce apart on a busy machine)
    writeFileSync(file, '{"version":2,"a":1}');
    writeFileSync(file, '{"version":2,"a":2}');
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    await sleep(100);
    expect(onChange).toHaveBeenCalledTimes(1);
    await writeFile(join(dir, 'other.json'), '{}'); // another file in the folder: not ours
    await sleep(100);
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('an edit the directory watch reported is not reported again by the poll', async () => {
    // The poll's interval is driven by hand: a look whose stat is under way while the file is
    // written would see the edit first, and the watch then reports it once more (an extra reload,
    // harmless, but not what this test is about). The watch, its debounce and the stats are real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const onChange = vi.fn();
      closers.push(watchStateFile(file, onChange, { pollMs: 30, debounceMs: 10 }));
      const pollLooks = async (n: number) => {
        for (let i = 0; i < n; i++) {
          vi.advanceTimersByTime(30);
          await sleep(20); // the look's stat
        }
      };
      await pollLooks(1);
      await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1)); // the poll's first look
      await pollLooks(3);
      expect(onChange).toHaveBeenCalledTimes(1);
      writeFileSync(file, '{"version":2,"c":1}');
      await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(2)); // the watch
      await pollLooks(6); // several more looks of the poll: the file is as the watch reported it
      expect(onChange).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an edit made while the last one is being reloaded is reported too', async () => {
    const edits = ['{"version":2,"d":1}', '{"version":2,"d":22}'];
    const onChange = vi.fn(() => {
      // the reload this stands for is still running when the next edit lands
      const next = edits.shift();
      if (next !== undefined) writeFileSync(file, next);
    });
    closers.push(watchStateFile(file, onChange, { pollMs: 60_000, debounceMs: 10 }));
    writeFileSync(file, '{"version":2,"d":0}');
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(3));
    await sleep(100);
    expect(onChange).toHaveBeenCalledTimes(3);
  });

  it('nothing is reported after close()', async () => {
    const onChange = vi.fn();
    const w = watchStateFile(file, onChange, { pollMs: 10, debounceMs: 5 });
    w.close();
    await writeFile(file, '{"version":2,"b":1}');
    await sleep(100);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('a symlinked file edited at its target, in another folder, is reported by the watch, and so is the target the link is moved to', async () => {
    const dotfiles = join(dir, 'dotfiles');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'svc.json');
    await writeFile(target, '{"version":2}');
    const link = join(dir, 'linked.json');
    await symlink(target, link);
    const onChange = vi.fn();
    // the poll would take a minute: only a watch of the target's folder sees these edits
    closers.push(watchStateFile(link, onChange, { pollMs: 60_000, debounceMs: 10, baseline: await fileSignature(link) }));
    writeFileSync(target, '{"version":2,"e":1}'); // in place
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    await writeFile(join(dotfiles, 'svc.json.tmp'), '{"version":2,"e":22}'); // an editor's save
    await rename(join(dotfiles, 'svc.json.tmp'), target);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));

    // the link moved to another file (ln -sf): reported, and that file's edits are then seen
    const next = join(dotfiles, 'svc-work.json');
    await writeFile(next, '{"version":2}');
    await symlink(next, `${link}.new`);
    await rename(`${link}.new`, link);
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(3));
    writeFileSync(next, '{"version":2,"f":1}');
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(4));
  });

  it('two files in one folder share one directory watch, each reporting only its own edits', async () => {
    const other = join(dir, 'credentials.json');
    await writeFile(other, '{}');
    const before = openDirectoryWatches();
    const onConfig = vi.fn();
    const onCredentials = vi.fn();
    const config = watchStateFile(file, onConfig, { pollMs: 60_000, debounceMs: 10 });
    const credentials = watchStateFile(other, onCredentials, { pollMs: 60_000, debounceMs: 10 });
    closers.push(config, credentials);
    expect(openDirectoryWatches()).toBe(before + 1);

    writeFileSync(other, '{"version":1}');
    await vi.waitFor(() => expect(onCredentials).toHaveBeenCalledTimes(1));
    writeFileSync(file, '{"version":2,"g":1}');
    await vi.waitFor(() => expect(onConfig).toHaveBeenCalledTimes(1));
    await sleep(100);
    expect(onCredentials).toHaveBeenCalledTimes(1);

    config.close(); // the other one keeps the watch
    expect(openDirectoryWatches()).toBe(before + 1);
    writeFileSync(other, '{"version":1,"credentials":{}}');
    await vi.waitFor(() => expect(onCredentials).toHaveBeenCalledTimes(2));
    credentials.close();
    expect(openDirectoryWatches()).toBe(before);
  });
});
