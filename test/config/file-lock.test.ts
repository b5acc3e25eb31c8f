import { mkdir, readdir, unlink, writeFile, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockTimeoutError, processAlive, withFileLock } from '../../src/config/file-lock.js';
import { writeFileAtomic } from '../../src/config/atomic-write.js';
import { LockQueue } from '../../src/config/lock-queue.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterEach(removeTempDirs);

describe('withFileLock', () => {
  it('runs critical sections one at a time', async () => {
    const lock = join(await tempStateDir(), 'x.lock');
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 10 }, () =>
        withFileLock(lock, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((r) => setTimeout(r, 5));
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(await readdir(dirname(lock))).toEqual([]); // no lock, no line of waiters left behind
  });

  it('releases the lock when the section throws', async () => {
    const dir = await tempStateDir();
    const lock = join(dir, 'x.lock');
    await expect(withFileLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await readdir(dir)).toEqual([]);
  });

  it('breaks a lock left by a dead process', async () => {
    const lock = join(await tempStateDir(), 'x.lock');
    const { hostname } = await import('node:os');
    await writeFile(lock, `999999999@${hostname()}\n`);
    expect(processAlive(999999999)).toBe(false);
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 2_000 })).resolves.toBe('ran');
  });

  it('breaks a lock older than staleMs', async () => {
    const lock = join(await tempStateDir(), 'x.lock');
    await writeFile(lock, `${process.pid}@somewhere-else\n`);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 2_000, staleMs: 30_000 })).resolves.toBe('ran');
  });

  it('times out with a clear message while a live process holds it', async () => {
    const lock = join(await tempStateDir(), 'x.lock');
    const { hostname } = await import('node:os');
    await writeFile(lock, `${process.pid}@${hostname()}\n`);
    const err = await withFileLock(lock, async () => 'never', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as Error).message).toContain(lock);
  });

  describe('the line of waiters', () => {
    /** A ticket as a waiter leaves it in `<lock>.queue/`: its time, pid and host name in the name. */
    async function ticket(lock: string, at: number, pid: number, host: string): Promise<string> {
      const file = join(`${lock}.queue`, `${String(at).padStart(15, '0')}-${String(pid).padStart(10, '0')}-${'1'.padStart(9, '0')}-${host}`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, '');
      return file;
    }
    const HOST = hostname().replace(/[^A-Za-z0-9]/g, '_');

    it('a free lock is not taken ahead of a live waiter in line', async () => {
      const lock = join(await tempStateDir(), 'x.lock');
      await ticket(lock, Date.now() - 1_000, process.pid, 'another_host'); // alive: touched just now
      const err = await withFileLock(lock, async () => 'never', { timeoutMs: 300 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockTimeoutError);
    });

    it('skips the ticket of a waiter that died on this machine, at once', async () => {
      const lock = join(await tempStateDir(), 'x.lock');
      await ticket(lock, Date.now() - 1_000, 999999999, HOST);
      expect(processAlive(999999999)).toBe(false);
      const started = Date.now();
      await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 2_000 })).resolves.toBe('ran');
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(await readdir(dirname(lock))).toEqual([]);
    });

    it('a waiter behind another looks at the line at most every 50 ms while the ticket ahead stays (it watches that ticket), and goes on once it goes', async () => {
      const lock = join(await tempStateDir(), 'x.lock');
      const ahead = await ticket(lock, Date.now() - 1_000, process.pid, 'another_host'); // alive: touched just now
      const looks = vi.spyOn(LockQueue.prototype, 'ourTurn');
      try {
        const taken = withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 });
        await new Promise((r) => setTimeout(r, 500));
        // 500 ms behind a ticket that does not move: ~10 looks (one per 50 ms, fewer when the
        // machine is busy); looking every 10–20 ms, as before, was 25–50
        expect(looks.mock.calls.length).toBeLessThanOrEqual(13);
        await unlink(ahead);
        await expect(taken).resolves.toBe('ran');
      } finally {
        looks.mockRestore();
      }
    });

    it('skips the ticket of a waiter elsewhere once it has not been touched for 3 s', async () => {
      const lock = join(await tempStateDir(), 'x.lock');
      const file = await ticket(lock, Date.now() - 10_000, 12345, 'another_host');
      const old = new Date(Date.now() - 2_500);
      await utimes(file, old, old);
      const started = Date.now();
      await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 5_000 })).resolves.toBe('ran');
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      expect(Date.now() - started).toBeLessThan(2_500);
    });
  });
});

describe('writeFileAtomic', () => {
  it('leaves no temp files behind and keeps a backup when asked', async () => {
    const dir = await tempStateDir();
    const file = join(dir, 'f.json');
    await writeFileAtomic(file, 'one', { backupPath: join(dir, 'f.json.bak') });
    await writeFileAtomic(file, 'two', { backupPath: join(dir, 'f.json.bak') });
    expect((await readdir(dir)).sort()).toEqual(['f.json', 'f.json.bak']);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readFile(join(dir, 'f.json.bak'), 'utf8')).toBe('one');
  });
});
