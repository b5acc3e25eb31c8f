/**
 * daemon.json deleted by hand while the daemon runs: every command that looks for the daemon
 * (`status`, `start`, `stop`, and those that manage through it: `key`, `logs`, …) waits for the
 * daemon to write it again (within 5 s), and past a second says so in one line on stderr, so the
 * wait is not mistaken for a hang; stdout (with --json, their JSON) stays as without the wait.
 */
import { access, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, removeTempDirs, runBin, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { processAlive } from '../../src/config/file-lock.js';

let home: string;
let env: Record<string, string | undefined>;
let pid = 0;
const bin = (args: string[]) => runBin(args, { env, timeoutMs: 30_000 });
const runtimeFile = () => join(home, 'daemon.json');
const notice = () => `svc-proxy: daemon.pid names a running daemon (pid ${pid}) but daemon.json is missing; waiting up to`;
const notices = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith(notice())).length;

/**
 * Deletes daemon.json just after the daemon wrote it again, so the next command has most of the
 * daemon's 5 s check interval to wait through (deleted at any other moment, it may be back at once).
 */
async function deleteAfterRewrite(): Promise<void> {
  await unlink(runtimeFile());
  const deadline = Date.now() + 10_000;
  while (!(await access(runtimeFile()).then(() => true, () => false))) {
    if (Date.now() > deadline) throw new Error('daemon.json was not written again');
    await new Promise((r) => setTimeout(r, 20));
  }
  await unlink(runtimeFile());
}

beforeAll(async () => {
  home = await tempStateDir('svc-e2e-daemon-json-wait-');
  env = cleanEnv({ SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() });
  const started = await bin(['start', '--port', '0', '--json']);
  expect(started.code, started.stderr).toBe(0);
  pid = (JSON.parse(started.stdout) as { pid: number }).pid;
});

afterAll(async () => {
  if (pid && processAlive(pid)) {
    await bin(['stop']).catch(() => undefined);
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await removeTempDirs();
});

describe('a wait for a hand-deleted daemon.json', () => {
  it('with daemon.json there, nothing is said', async () => {
    const status = await bin(['status', '--json']);
    expect(status.code).toBe(0);
    expect(status.stderr).toBe('');
  });

  it('commands that manage through the daemon (key list, logs) say it too, and still ask the daemon', async () => {
    await deleteAfterRewrite();
    const keys = await bin(['key', 'list', '--json']);
    expect(keys.code, keys.stderr).toBe(0);
    expect(Array.isArray(JSON.parse(keys.stdout))).toBe(true);
    expect(notices(keys.stderr), keys.stderr).toBe(1);

    await unlink(runtimeFile());
    const logs = await bin(['logs', '--json']);
    expect(logs.code, logs.stderr).toBe(0);
    expect(notices(logs.stderr), logs.stderr).toBe(1);
  });

  it('status, start and stop say once, on stderr, what they wait for; their JSON on stdout is unchanged', async () => {
    await deleteAfterRewrite();
    const status = await bin(['status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ pid });
    expect(notices(status.stderr), status.stderr).toBe(1);

    // the wait ended as the daemon wrote the file: deleted now, the next command waits again
    await unlink(runtimeFile());
    const started = await bin(['start', '--json']);
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({ pid, alreadyRunning: true });
    expect(notices(started.stderr), started.stderr).toBe(1);

    await unlink(runtimeFile());
    const stopped = await bin(['stop', '--json']);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(JSON.parse(stopped.stdout)).toEqual({ stopped: true, pid, forced: false });
    expect(stopped.stderr).toMatch(/^svc-proxy: daemon\.pid names a running daemon \(pid \d+\) but daemon\.json is missing; waiting up to \d+ s for the daemon to write it again…\n$/);
  });
});
