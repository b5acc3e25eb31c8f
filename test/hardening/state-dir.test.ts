/**
 * The state directory fails under a running daemon: it fills up, or turns read-only. The daemon
 * keeps serving from memory (keys, config, the request log's recent entries), says once and
 * clearly that it cannot write, refuses changes with a clear error while leaving config.json
 * intact, and recovers by itself when the disk does.
 *
 * "Full" needs a tiny tmpfs (root on Linux); "read-only" uses a read-only remount of it, or
 * chmod 0500 when not root. Without a way to simulate a condition the test says so and skips.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { parseEntries, TestDaemon } from '../fixtures/daemon.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { CREDS, NO_KEYCHAIN, send, sleep } from './helpers.js';

const isRoot = process.getuid?.() === 0;
const home = await mkdtemp(join(tmpdir(), 'svc-hz-state-'));
const mounted = tryMountTmpfs(home);
let mock: GenericChatMock;
let d: TestDaemon;

/**
 * Linux refuses a read-only remount while a file on it is open for writing (EBUSY): the daemon
 * keeps its request log open between batches and closes it after 5 s without one, so this is
 * retried until then (and so also checks that an idle daemon lets go of the file).
 */
async function remountReadOnly(): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      execFileSync('mount', ['-o', 'remount,ro', home], { stdio: 'pipe' });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(250);
    }
  }
}

function tryMountTmpfs(dir: string): boolean {
  if (!isRoot || process.platform !== 'linux') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  mock = await new GenericChatMock({ apiKey: CREDS.ca, name: 'ca', models: ['qwen3-coder'] }).listen();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/_API_KEY$|^SVC_PROXY_HOME$|_PROXY$|_proxy$/.test(k)) env[k] = v;
  d = new TestDaemon(home, { ...env, ...NO_KEYCHAIN });
  await writeFile(join(home, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { logRetentionDays: 1 } }), { mode: 0o600 });
  await d.cli(['endpoint', 'add', 'ca', '--url', mock.baseUrl, '--format', 'a', '--insecure-storage'], { input: `${CREDS.ca}\n` });
  d.key = (JSON.parse((await d.cli(['key', 'create', '--name', 'survivor', '--json'])).stdout) as { key: string }).key;
  await d.start();
  // the request log folder exists before anything breaks (as on any machine that served a request)
  await serveSome(2);
  await d.logs((e) => e.length >= 2);
}, 60_000);

afterAll(async () => {
  await d?.stop();
  await mock?.close();
  if (mounted) {
    try {
      execFileSync('mount', ['-o', 'remount,rw', home], { stdio: 'ignore' });
    } catch {
      // not remounted read-only
    }
    execFileSync('umount', ['-l', home], { stdio: 'ignore' });
  } else {
    await chmod(home, 0o700).catch(() => undefined);
  }
  await rm(home, { recursive: true, force: true });
});

const chat = () => send(d, '/protocol-a/v1/chat/completions', { body: { model: 'ca/qwen3-coder', messages: [{ role: 'user', content: 'hi' }] } });

/** Serve N requests; they must all succeed. */
async function serveSome(n: number): Promise<void> {
  const results = await Promise.all(Array.from({ length: n }, () => chat()));
  expect(results.map((r) => r.status)).toEqual(Array(n).fill(200));
}

/** Count the daemon output lines matching a pattern (after waiting a little for them). */
async function linesMatching(re: RegExp, atLeast = 1, timeoutMs = 3_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = d.log.split('\n').filter((l) => re.test(l));
    if (lines.length >= atLeast || Date.now() > deadline) return lines;
    await sleep(50);
  }
}

/** The checks shared by "full" and "read-only": serving, reporting, refusing, not corrupting. */
async function whileBroken(errno: RegExp): Promise<void> {
  const configBefore = await readFile(join(home, 'config.json'), 'utf8');
  await serveSome(20);
  const reported = await linesMatching(/request log: cannot write/);
  expect(reported, d.log).toHaveLength(1);
  expect(reported[0]).toMatch(errno);
  await serveSome(10);
  // reported once per episode, not per request
  expect(await linesMatching(/request log: cannot write/, 2, 300)).toHaveLength(1);

  // recent entries are still there, from memory
  const logs = parseEntries((await d.cli(['logs', '--json', '--limit', '100'])).stdout);
  expect(logs.filter((e) => e.status === 200).length).toBeGreaterThanOrEqual(30);

  // a change is refused with a clear error; config.json is untouched; the daemon still answers
  const refused = await d.cli(['key', 'create', '--name', 'while-broken', '--json'], { allowFail: true });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr + refused.stdout).toMatch(errno);
  expect(refused.stderr + refused.stdout).not.toMatch(/\n\s+at /);
  expect(await readFile(join(home, 'config.json'), 'utf8')).toBe(configBefore);
  expect((await d.cli(['status'])).code).toBe(0);
  await serveSome(5);
}

/** After the disk is back: the log writes again (said once), changes work, the log reads clean. */
async function afterRecovery(): Promise<void> {
  await serveSome(3);
  expect(await linesMatching(/request log: writing to .* again/)).toHaveLength(1);
  const created = await d.cli(['key', 'create', '--name', 'after', '--json']);
  const key = (JSON.parse(created.stdout) as { key: string }).key;
  expect((await send(d, '/protocol-a/v1/models', { key })).status).toBe(200);
  const logs = parseEntries((await d.cli(['logs', '--json', '--limit', '500'])).stdout);
  expect(logs.length).toBeGreaterThan(0);
}

describe('state directory full', () => {
  it.runIf(mounted)('keeps serving from memory, reports once, refuses changes cleanly, recovers', async () => {
    const filler = join(home, 'filler');
    await writeFile(filler, Buffer.alloc(2 * 1024 * 1024, 1)).catch(() => undefined);
    try {
      await whileBroken(/ENOSPC|no space/i);
    } finally {
      await unlink(filler);
    }
    await afterRecovery();
  });
  it.skipIf(mounted)('(skipped: needs root on Linux to mount a tiny tmpfs as a full disk)', () => undefined);
});

describe('state directory read-only', () => {
  it.runIf(mounted || !isRoot)('keeps serving from memory, reports once, refuses changes cleanly, recovers', async () => {
    // a new episode: the previous test recovered, so the next failure is reported again
    const before = (await linesMatching(/request log: cannot write/, 0, 0)).length;
    const recoveredBefore = (await linesMatching(/request log: writing to .* again/, 0, 0)).length;
    if (mounted) await remountReadOnly();
    else {
      // without root: the folders and the log file itself lose their write bits
      await chmod(join(home, 'logs', 'requests.jsonl'), 0o400);
      await chmod(join(home, 'logs'), 0o500);
      await chmod(home, 0o500);
    }
    try {
      const configBefore = await readFile(join(home, 'config.json'), 'utf8');
      await serveSome(20);
      const reported = await linesMatching(/request log: cannot write/, before + 1);
      expect(reported.length).toBe(before + 1);
      expect(reported.at(-1)).toMatch(/EROFS|read-only|EACCES|permission/i);
      const refused = await d.cli(['key', 'create', '--name', 'while-ro', '--json'], { allowFail: true });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr + refused.stdout).toMatch(/EROFS|read-only|EACCES|permission/i);
      expect(await readFile(join(home, 'config.json'), 'utf8')).toBe(configBefore);
      const logs = parseEntries((await d.cli(['logs', '--json', '--limit', '100'])).stdout);
      expect(logs.filter((e) => e.status === 200).length).toBeGreaterThanOrEqual(20);
    } finally {
      if (mounted) execFileSync('mount', ['-o', 'remount,rw', home], { stdio: 'ignore' });
      else {
        await chmod(home, 0o700);
        await chmod(join(home, 'logs'), 0o700);
        await chmod(join(home, 'logs', 'requests.jsonl'), 0o600);
      }
    }
    await serveSome(3);
    expect(await linesMatching(/request log: writing to .* again/, recoveredBefore + 1)).toHaveLength(recoveredBefore + 1);
    await d.cli(['key', 'create', '--name', 'after-ro', '--json']);
  });
  it.skipIf(mounted || !isRoot)('(skipped: root without a tmpfs mount cannot be kept from writing)', () => undefined);
});
