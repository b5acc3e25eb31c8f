/**
 * A daemon that outlives its drain is killed, and `restart` and `stop` say so. The daemon is made
 * to outlive it for real: its process is stopped (SIGSTOP), so it can neither answer the shutdown
 * request nor handle SIGTERM, and the drain budget is the shortest config.json allows (the CLI
 * still waits its 10 s margin past it). The four cases run side by side, each with a state dir of
 * its own. Needs `npm run build` (the real binary).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/config/file-lock.js';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { cleanEnv, http, removeTempDirs, runBin, tempStateDir, testKeychainService, type CliRun } from '../daemon/harness.js';

/** Every daemon a case started, to be gone whatever the case did. */
const started: number[] = [];

afterAll(async () => {
  for (const pid of started) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  await removeTempDirs();
});

/** A background daemon, stopped (SIGSTOP) once it answered, with a drain of 1 ms. */
async function frozenDaemon(): Promise<{ pid: number; cli: (args: string[]) => Promise<CliRun> }> {
  const home = await tempStateDir('svc-e2e-forced-');
  await writeFile(join(home, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { drainTimeoutMs: 1 } }), { mode: 0o600 });
  const env = cleanEnv({ SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() });
  const cli = (args: string[]) => runBin(args, { env, timeoutMs: 40_000 });
  const start = await cli(['start', '--port', '0', '--json']);
  expect(start.code, start.stderr).toBe(0);
  const { pid } = JSON.parse(start.stdout) as { pid: number };
  started.push(pid);
  process.kill(pid, 'SIGSTOP');
  return { pid, cli };
}

async function restartsForced(json: boolean): Promise<void> {
  const { pid, cli } = await frozenDaemon();
  try {
    const res = await cli(json ? ['restart', '--port', '0', '--json'] : ['restart', '--port', '0']);
    expect(res.code, res.stderr).toBe(0);
    expect(processAlive(pid)).toBe(false);
    let fresh: { pid: number; port: number };
    if (json) {
      const printed = JSON.parse(res.stdout) as { pid: number; port: number; stoppedPid: number; forced: boolean };
      expect(printed).toMatchObject({ stoppedPid: pid, forced: true, byLoginService: false });
      fresh = printed;
    } else {
      expect(res.stdout).toContain(`svc-proxy (pid ${pid}) did not stop in time and was killed.\n`);
      const line = /svc-proxy started \(pid (\d+)\) on 127\.0\.0\.1:(\d+)/.exec(res.stdout);
      expect(line, res.stdout).not.toBeNull();
      fresh = { pid: Number(line![1]), port: Number(line![2]) };
    }
    started.push(fresh.pid);
    expect(fresh.pid).not.toBe(pid);
    expect((await http('GET', `http://127.0.0.1:${fresh.port}/health`)).status).toBe(200);
    expect((await cli(['stop', '--json'])).stdout).toContain('"forced": false');
  } finally {
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}

async function stopsForced(json: boolean): Promise<void> {
  const { pid, cli } = await frozenDaemon();
  try {
    const res = await cli(json ? ['stop', '--json'] : ['stop']);
    expect(res.code, res.stderr).toBe(0);
    if (json) expect(JSON.parse(res.stdout)).toEqual({ stopped: true, pid, forced: true });
    else expect(res.stdout).toBe(`svc-proxy (pid ${pid}) did not stop in time and was killed.\n`);
    expect(processAlive(pid)).toBe(false);
    const status = await cli(['status', '--json']);
    expect(JSON.parse(status.stdout)).toEqual({ running: false });
  } finally {
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}

describe('a daemon that does not stop within its drain is killed', () => {
  it('restart and stop say forced, in words and in --json; the new daemon answers', async () => {
    await Promise.all([restartsForced(true), restartsForced(false), stopsForced(true), stopsForced(false)]);
  }, 90_000);
});
