/**
 * daemon.json exists before the daemon answers anything: a client that reads it (as `svc-proxy
 * status` does) the moment /health first answers finds the daemon there, whether it runs in the
 * foreground, was started in the background by `start`, or is the new one of a `restart`. The
 * probe waits, with cheap file checks, until the new daemon holds daemon.pid (its port opens a
 * moment later), then polls /health with no pause and reads daemon.json at once, synchronously,
 * when the first answer arrives. Needs `npm run build` (the real binary).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/config/file-lock.js';
import { BIN, cleanEnv, removeTempDirs, runBin, tempStateDir } from '../daemon/harness.js';
import { freePort } from '../fixtures/ports.js';

/**
 * Each start is a fresh chance for the daemon to answer before its file is written; on the old
 * order (the file written after listen resolved) most foreground rounds saw no file. A foreground
 * round is the cheapest start there is, so the rounds go there; `start` and `restart` run once.
 */
const FOREGROUND_ROUNDS = 3;

afterAll(removeTempDirs);

type Probe = 'refused' | 'other' | number;

/** One GET /health on a new connection: the status code, or how it failed. */
function healthOnce(port: number): Promise<Probe> {
  return new Promise((resolve) => {
    const sock = connect({ host: '127.0.0.1', port });
    let head = '';
    sock.once('connect', () => sock.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`));
    sock.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) {
        sock.destroy();
        resolve(Number(status[1]));
      }
    });
    sock.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'other'));
    sock.once('close', () => resolve('other'));
  });
}

function pidInFile(home: string): number | undefined {
  try {
    return Number(readFileSync(join(home, 'daemon.pid'), 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Wait until daemon.pid names a daemon other than `previous` (the new one took its lock; the old
 * one of a restart has let its port go by then), then poll /health until it answers 200 and read
 * daemon.json before anything else can run. Only the last stretch polls without pause: the
 * daemon's own start-up is waited out with a file check every few milliseconds.
 */
async function daemonJsonAtFirstAnswer(port: number, home: string, previous?: number): Promise<string> {
  const deadline = Date.now() + 20_000;
  const inTime = (): void => {
    if (Date.now() > deadline) throw new Error(`no new daemon answered on port ${port} in time`);
  };
  for (let pid = pidInFile(home); pid === undefined || pid === previous; pid = pidInFile(home)) {
    inTime();
    await sleep(3);
  }
  for (;;) {
    inTime();
    const probe = await healthOnce(port);
    if (probe !== 200) continue;
    try {
      return readFileSync(join(home, 'daemon.json'), 'utf8');
    } catch (err) {
      return `not readable: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
    }
  }
}

function expectDaemonOn(text: string, port: number): number {
  expect(text, 'daemon.json at the first answer of /health').toMatch(/^\{/);
  const info = JSON.parse(text) as { pid: number; port: number };
  expect(info.port).toBe(port);
  return info.pid;
}

async function setup(): Promise<{ home: string; port: number; env: Record<string, string | undefined> }> {
  const home = await tempStateDir('svc-e2e-daemon-json-');
  return { home, port: await freePort(), env: cleanEnv({ SVC_PROXY_HOME: home }) };
}

// side by side: each case waits mostly on its daemons' start-up
describe.concurrent('daemon.json is there before the daemon answers', () => {
  it('in a foreground run', async () => {
    for (let round = 0; round < FOREGROUND_ROUNDS; round++) {
      const { home, port, env } = await setup();
      const child = spawn(process.execPath, [BIN, 'start', '--foreground', '--no-tui', '--port', String(port)], { env: env as NodeJS.ProcessEnv, stdio: 'ignore' });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const text = await daemonJsonAtFirstAnswer(port, home);
        expect(expectDaemonOn(text, port)).toBe(child.pid);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    }
  }, 60_000);

  it('for the daemon `start` spawns, and the new one of a `restart`', async () => {
    const { home, port, env } = await setup();
    try {
      const [text, started] = await Promise.all([daemonJsonAtFirstAnswer(port, home), runBin(['start', '--port', String(port)], { env })]);
      expect(started.code, started.stderr).toBe(0);
      const first = expectDaemonOn(text, port);
      // --port: a restart by hand, even where a login service is installed for another state dir
      const [again, restarted] = await Promise.all([daemonJsonAtFirstAnswer(port, home, first), runBin(['restart', '--port', String(port)], { env })]);
      expect(restarted.code, restarted.stderr).toBe(0);
      expect(expectDaemonOn(again, port)).not.toBe(first);
    } finally {
      const pid = pidInFile(home);
      if (pid !== undefined) {
        process.kill(pid, 'SIGTERM');
        // gone before its state dir is removed: a stopping daemon still writes there
        while (processAlive(pid)) await sleep(20);
      }
    }
  }, 60_000);
});
