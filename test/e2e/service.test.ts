/**
 * `svc-proxy service install|status|uninstall` on Linux: the real CLI writes the systemd user unit,
 * and a stand-in `systemctl` (test/fixtures/user-manager/systemctl.mjs; CI runs no user manager)
 * runs that unit as the manager would — its ExecStart with only its Environment — so the test sees
 * the daemon the unit starts: its state dir, the proxy carried from the shell, its log. The real
 * systemd checks the file (`systemd-analyze verify`), and the real `systemctl` without a user
 * manager shows the failure a container or WSL gives.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/config/file-lock.js';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { BIN } from '../daemon/harness.js';
import { freePort } from '../fixtures/ports.js';
import { runProcess, sandbox, type ProcResult, type Sandbox } from '../fixtures/tools.js';

const FAKE_SYSTEMCTL = fileURLToPath(new URL('../fixtures/user-manager/systemctl.mjs', import.meta.url));
const CA = fileURLToPath(new URL('../fixtures/tls/ca.pem', import.meta.url));

let box: Sandbox;
let state: string;
let managerState: string;
let unitFile: string;
let port: number;
/** The shell `service install` runs in: a proxy with a password, one without, a CA file, a provider key. */
let shell: Record<string, string>;

function pathWith(dir: string | undefined): string {
  return [dir, dirname(process.execPath), '/usr/bin', '/bin'].filter(Boolean).join(':');
}

const cli = (args: string[], env: Record<string, string> = shell): Promise<ProcResult> => runProcess(process.execPath, [BIN, ...args], { env, timeoutMs: 60_000 });

/** A zombie counts as gone: where the init process does not reap, a stopped daemon stays one. */
const alive = processAlive;

async function runtimePid(): Promise<number> {
  return (JSON.parse(await readFile(join(state, 'daemon.json'), 'utf8')) as { pid: number }).pid;
}

beforeAll(async () => {
  box = await sandbox();
  // a specifier character systemd wants doubled, all the way to the daemon's log
  state = join(box.home, 'state%1');
  managerState = join(box.home, 'manager');
  const bin = join(box.home, 'bin');
  await mkdir(state, { recursive: true, mode: 0o700 });
  await mkdir(managerState, { recursive: true });
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, 'systemctl'), `#!/bin/sh\nexec "${process.execPath}" "${FAKE_SYSTEMCTL}" "$@"\n`);
  await chmod(join(bin, 'systemctl'), 0o755);
  port = await freePort();
  await writeFile(join(state, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { port } }), { mode: 0o600 });
  unitFile = join(box.home, '.config', 'systemd', 'user', 'svc-proxy.service');
  shell = {
    ...box.env,
    PATH: pathWith(bin),
    XDG_CONFIG_HOME: join(box.home, '.config'),
    SVC_PROXY_HOME: state,
    FAKE_SYSTEMD_STATE: managerState,
    HTTP_PROXY: 'http://proxy.corp.test:3128',
    HTTPS_PROXY: 'http://alice:s3cret-pw@proxy.corp.test:3128',
    NO_PROXY: '.corp.test',
    NODE_EXTRA_CA_CERTS: CA,
    ANTHROPIC_API_KEY: 'sk-ant-from-the-shell',
  };
}, 30_000);

// each case starts with no unit, whatever an earlier one left
beforeEach(async () => {
  await rm(unitFile, { force: true });
});

afterAll(async () => {
  if (shell) await cli(['stop']).catch(() => undefined);
  await box?.remove();
});

describe.runIf(process.platform === 'linux')('svc-proxy service on systemd', () => {
  it('install takes over from a daemon started by hand, with a unit that starts a working daemon; status; uninstall stops it', async () => {
    // by hand on another port than settings.port, which the service will use
    const handPort = await freePort();
    const byHand = await cli(['start', '--port', String(handPort)]);
    expect(byHand.code, byHand.stderr).toBe(0);
    const handPid = await runtimePid();

    const installed = await cli(['service', 'install']);
    expect(installed.code, installed.stderr + installed.stdout).toBe(0);
    expect(installed.stdout).toContain(`svc-proxy now starts at login (systemd user unit ${unitFile})`);
    expect(installed.stdout).toContain(`svc-proxy stopped (pid ${handPid}). The service runs the daemon now.\n`);
    expect(installed.stdout).toContain(`http://127.0.0.1:${port}/protocol-b`);
    expect(installed.stdout).toMatch(/note: HTTPS_PROXY in this shell carries a user and password/);
    expect(installed.stdout).toMatch(/note: The service does not see ANTHROPIC_API_KEY.*svc-proxy provider connect anthropic/);
    expect(installed.stdout).toContain(`note: It runs Node at ${process.execPath}`);
    expect(installed.stdout).toContain(`note: The daemon that was running listened on 127.0.0.1:${handPort}; the service's listens on 127.0.0.1:${port} (settings.host and settings.port)`);

    // the daemon now is the one the manager started from the unit
    let pid = await runtimePid();
    expect(alive(handPid)).toBe(false);
    expect(pid).toBe(Number(await readFile(join(managerState, 'pid'), 'utf8')));
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);

    const unit = await readFile(unitFile, 'utf8');
    expect(unit).not.toContain('s3cret');
    expect(unit).toContain(`Environment="SVC_PROXY_HOME=${state.replace('%', '%%')}"`);
    expect(unit).toContain('Environment="HTTP_PROXY=http://proxy.corp.test:3128"');
    expect(unit).toContain(`Environment="NODE_EXTRA_CA_CERTS=${CA}"`);
    expect(unit).not.toContain('ANTHROPIC_API_KEY');
    expect(unit).toContain(`StandardOutput=append:${state.replace('%', '%%')}/daemon.log`);
    // the unit's daemon writes where `svc-proxy` points for its log
    expect(await readFile(join(state, 'daemon.log'), 'utf8')).toContain(`listening on 127.0.0.1:${port} (pid ${pid}, state ${state})`);

    // what the shell's proxy variables became inside the unit's daemon: the carried one, not the other
    const status = JSON.parse((await cli(['status', '--json'])).stdout) as { pid: number; upstreamProxy: Record<string, unknown>; loginService: unknown };
    expect(status.pid).toBe(pid);
    expect(status.loginService).toEqual({ manager: 'systemd', title: 'systemd user unit', file: unitFile });
    expect((await cli(['status'])).stdout).toContain(`login service: systemd user unit ${unitFile} (svc-proxy service status)`);
    expect(status.upstreamProxy).toMatchObject({ mode: 'env', http: 'http://proxy.corp.test:3128', httpSource: 'HTTP_PROXY', noProxy: '.corp.test' });
    expect(status.upstreamProxy.https).toBeUndefined();

    const calls = (await readFile(join(managerState, 'calls.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as string[]);
    expect(calls).toEqual([
      ['--user', 'daemon-reload'],
      ['--user', 'enable', 'svc-proxy.service'],
      ['--user', 'restart', 'svc-proxy.service'],
    ]);

    // restart goes through the service: its daemon again, not one started by hand beside it
    const restarted = await cli(['restart']);
    expect(restarted.code, restarted.stderr).toBe(0);
    const newPid = await runtimePid();
    expect(newPid).not.toBe(pid);
    expect(newPid).toBe(Number(await readFile(join(managerState, 'pid'), 'utf8')));
    expect(restarted.stdout).toContain(`stopped (pid ${pid})`);
    expect(restarted.stdout).toContain(`svc-proxy started (pid ${newPid}) on 127.0.0.1:${port} by its login service`);
    pid = newPid;
    // and --json says so
    const viaJson = await cli(['restart', '--json']);
    expect(viaJson.code, viaJson.stderr).toBe(0);
    const json = JSON.parse(viaJson.stdout) as { pid: number };
    expect(json).toMatchObject({ pid: await runtimePid(), host: '127.0.0.1', port, stoppedPid: pid, forced: false, byLoginService: true });
    expect(json.pid).not.toBe(pid);
    pid = json.pid;
    expect((await readFile(join(managerState, 'calls.jsonl'), 'utf8')).trim().split('\n').pop()).toBe('["--user","restart","svc-proxy.service"]');

    const text = await cli(['service', 'status']);
    expect(text.stdout).toContain(`login service: ${unitFile} (systemd user unit): starts at login, active`);
    expect(text.stdout).not.toContain('differs');
    expect(text.stdout).toContain(`daemon: running (pid ${pid}) on 127.0.0.1:${port}`);
    // another shell, another environment: the file is no longer what install would write
    const other = JSON.parse((await cli(['service', 'status', '--json'], { ...shell, HTTP_PROXY: 'http://other.corp.test:8080' })).stdout) as Record<string, unknown>;
    expect(other).toMatchObject({ installed: true, manager: 'systemd', enabled: true, state: 'active', current: false, daemon: { pid, port } });

    const removed = await cli(['service', 'uninstall']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`Removed the login service (${unitFile})`);
    expect(alive(pid)).toBe(false);
    expect(existsSync(unitFile)).toBe(false);
    const after = (await readFile(join(managerState, 'calls.jsonl'), 'utf8')).trim().split('\n').slice(-2).map((l) => JSON.parse(l) as string[]);
    expect(after).toEqual([
      ['--user', 'disable', '--now', 'svc-proxy.service'],
      ['--user', 'daemon-reload'],
    ]);
    expect((await cli(['service', 'status'])).stdout).toMatch(/^No login service is installed[\s\S]*daemon: not running/);
    expect((await cli(['service', 'uninstall'])).stdout).toContain('No login service is installed.');
  }, 90_000);

  it('install over a daemon that outlives its drain says it was killed, in stop\'s words', async () => {
    // the shortest drain config.json allows, and a process that can answer nothing (SIGSTOP)
    const config = join(state, 'config.json');
    const saved = await readFile(config, 'utf8');
    await writeFile(config, JSON.stringify({ version: CONFIG_VERSION, settings: { port, drainTimeoutMs: 1 } }), { mode: 0o600 });
    const handPort = await freePort();
    expect((await cli(['start', '--port', String(handPort)])).code).toBe(0);
    const handPid = await runtimePid();
    process.kill(handPid, 'SIGSTOP');
    try {
      const installed = await cli(['service', 'install']);
      expect(installed.code, installed.stderr + installed.stdout).toBe(0);
      expect(installed.stdout).toContain(`svc-proxy (pid ${handPid}) did not stop in time and was killed. The service runs the daemon now.\n`);
      expect(alive(handPid)).toBe(false);
      expect((await cli(['service', 'uninstall'])).code).toBe(0);
    } finally {
      if (alive(handPid)) process.kill(handPid, 'SIGKILL');
      await writeFile(config, saved, { mode: 0o600 });
    }
  }, 90_000);

  it('a daemon whose state dir is already served exits 0, so the manager does not restart it again and again', async () => {
    expect((await cli(['start'])).code).toBe(0);
    const pid = await runtimePid();
    const second = await runProcess(process.execPath, [join(dirname(BIN), '..', 'dist', 'daemon', 'main.js')], { env: shell, timeoutMs: 30_000 });
    expect(second.code).toBe(0);
    expect(second.stdout + second.stderr).toContain(`not started: another daemon (pid ${pid}) already serves this state dir`);
    expect(await runtimePid()).toBe(pid);
    await cli(['stop']);
  }, 60_000);

  it('without systemctl: nothing is written and the daemon started by hand keeps running', async () => {
    expect((await cli(['start'])).code).toBe(0);
    const pid = await runtimePid();
    const empty = join(box.home, 'empty-bin');
    await mkdir(empty, { recursive: true });
    const res = await cli(['service', 'install'], { ...shell, PATH: empty });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Could not install the login service: systemctl was not found: this system does not run systemd');
    expect(existsSync(unitFile)).toBe(false);
    expect(alive(pid)).toBe(true);
    await cli(['stop']);
  }, 60_000);
});

/** Whether a real systemd user manager answers here (then the test leaves it alone). */
function realManagerAnswers(): Promise<boolean | 'no-systemctl'> {
  return new Promise((resolve) => {
    execFile('systemctl', ['--user', 'is-system-running'], (err, stdout) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') resolve('no-systemctl');
      else resolve(/running|degraded|starting|initializing|maintenance|stopping/.test(stdout));
    });
  });
}

describe.runIf(process.platform === 'linux')('svc-proxy service with the real systemctl', () => {
  it('where no user manager runs (a container, WSL): systemctl’s own words, and nothing changed', async (test) => {
    const real = await realManagerAnswers();
    if (real === 'no-systemctl') test.skip(true, 'systemctl is not installed here');
    if (real === true) test.skip(true, 'a systemd user manager runs here; the test does not touch it');
    const res = await cli(['service', 'install'], { ...shell, PATH: pathWith(undefined) });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Could not install the login service: `systemctl --user daemon-reload` failed \(exit \d+\): .*(bus|systemd)/i);
    expect(res.stderr).toContain('Nothing was changed');
    expect(existsSync(unitFile)).toBe(false);
  }, 60_000);
});
