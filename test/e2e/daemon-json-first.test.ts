/**
 * daemon.json exists before the daemon answers anything: a client that reads it (as `svc-proxy
 * status` does) the moment /health first answers finds the daemon there, whether it runs in the
 * foreground, was started in the background by `start`, or is the new one of a `restart`. The
 * probe polls /health with no pause from before the port opens, and reads daemon.json at once,
 * synchronously, when the first answer arrives. Needs `npm run build` (the real binary).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, removeTempDirs, runBin, tempStateDir } from '../daemon/harness.js';
import { freePort } from '../fixtures/ports.js';

/** Each start is a fresh chance for the daemon to answer before its file is written. */
const ROUNDS = 5;

afterEach(removeTempDirs);

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

/**
 * Poll /health until it answers 200 (after the port was seen closed, with `afterClosed`: a
 * restart's old daemon answers first), then read daemon.json before anything else can run.
 */
async function daemonJsonAtFirstAnswer(port: number, home: string, opts: { afterClosed?: boolean; timeoutMs?: number } = {}): Promise<string> {
  let closedSeen = opts.afterClosed !== true;
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    const probe = await healthOnce(port);
    if (probe === 'refused') closedSeen = true;
    else if (probe === 200 && closedSeen) {
      try {
        return readFileSync(join(home, 'daemon.json'), 'utf8');
      } catch (err) {
        return `not readable: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
      }
    }
  }
  throw new Error(`no answer on port ${port} in time`);
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

describe('daemon.json is there before the daemon answers', () => {
  it('in a foreground run', async () => {
    for (let round = 0; round < ROUNDS; round++) {
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
  }, 90_000);

  it('for the daemon `start` spawns, and the new one of each `restart`', async () => {
    const { home, port, env } = await setup();
    try {
      const [text, started] = await Promise.all([daemonJsonAtFirstAnswer(port, home), runBin(['start', '--port', String(port)], { env })]);
      expect(started.code, started.stderr).toBe(0);
      let previous = expectDaemonOn(text, port);
      for (let round = 0; round < ROUNDS; round++) {
        // --port: a restart by hand, even where a login service is installed for another state dir
        const [again, restarted] = await Promise.all([daemonJsonAtFirstAnswer(port, home, { afterClosed: true }), runBin(['restart', '--port', String(port)], { env })]);
        expect(restarted.code, restarted.stderr).toBe(0);
        const pid = expectDaemonOn(again, port);
        expect(pid).not.toBe(previous);
        previous = pid;
      }
    } finally {
      await runBin(['stop'], { env });
    }
  }, 90_000);
});
