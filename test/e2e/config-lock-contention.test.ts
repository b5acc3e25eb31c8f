/**
 * Many CLI commands changing config.json at once. Ten `svc-proxy key create` processes started
 * together, with no daemon (each takes the config lock itself) and with one (the daemon takes it
 * for each, and its watcher reloads after each write): every one finishes, inside the lock's own
 * 10 s wait, and no key is lost. Node's start spreads the processes out, so they overlap less
 * than they seem to: test/config/file-lock-contention.test.ts contends for the lock in earnest.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, removeTempDirs, runBin, tempStateDir } from '../daemon/harness.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';

const WRITERS = 10;
/** Below the lock's own 10 s wait: a writer that starved would fail with a lock timeout first. */
const ALL_DONE_WITHIN_MS = 9_000;

let d: TestDaemon | undefined;
afterEach(removeTempDirs);
afterAll(() => stopDaemon(d));

/** Start every writer together; each must exit 0. Returns the names that were asked for and how long the slowest took. */
async function createKeysAtOnce(run: (name: string) => Promise<{ code: number; stdout: string; stderr: string }>): Promise<{ names: string[]; slowestMs: number }> {
  const names = Array.from({ length: WRITERS }, (_, i) => `writer-${i}`);
  const started = Date.now();
  const tookMs: number[] = [];
  const results = await Promise.all(
    names.map(async (name) => {
      const res = await run(name);
      tookMs.push(Date.now() - started);
      return res;
    }),
  );
  for (const res of results) expect(res.code, res.stderr).toBe(0);
  return { names, slowestMs: Math.max(...tookMs) };
}

async function keyNames(home: string): Promise<string[]> {
  const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { keys: Array<{ name: string }> };
  return config.keys.map((k) => k.name).sort();
}

describe('ten concurrent key create commands', () => {
  it('without a daemon: each takes the lock in turn, all finish in bounded time, no write lost', async () => {
    const home = await tempStateDir('svc-lock-');
    const env = cleanEnv({ SVC_PROXY_HOME: home });
    const { names, slowestMs } = await createKeysAtOnce((name) => runBin(['key', 'create', '--name', name, '--json'], { env, timeoutMs: 20_000 }));
    expect(await keyNames(home)).toEqual(names.sort());
    expect(slowestMs).toBeLessThan(ALL_DONE_WITHIN_MS);
  }, 30_000);

  it('with a daemon running: the same, through its admin API and alongside its reloads', async () => {
    d = await startDaemon();
    const daemon = d;
    const { names, slowestMs } = await createKeysAtOnce((name) => daemon.cli(['key', 'create', '--name', name, '--json'], { allowFail: true, timeoutMs: 20_000 }));
    expect(await keyNames(daemon.home)).toEqual(['e2e', ...names].sort());
    expect(slowestMs).toBeLessThan(ALL_DONE_WITHIN_MS);
  }, 60_000);
});
