/**
 * The foundation end to end, through the real binary (bin/svc-proxy.cjs; run `npm run build` first):
 * start the background daemon, create a key, call a route with each header form, revoke, and see
 * 401 on the very next call; plus status, providers, hand edits, stop, and startup failures.
 */
import { spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, http, keychainAvailability, removeTempDirs, runBin, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { processAlive } from '../../src/config/file-lock.js';
import { loadMallocTrim } from '../../src/daemon/malloc-trim.js';
import { documentedJsonKeys } from '../fixtures/json-help.js';

const keychainOk = (await keychainAvailability()).ok;
let home: string;
let env: Record<string, string | undefined>;
let port = 0;
let pid = 0;
const bin = (args: string[], input?: string) => runBin(args, { env, input });
const origin = () => `http://127.0.0.1:${port}`;

/** Until process p is gone; a zombie waiting for its reaper is gone as far as we are concerned. */
async function waitGone(p: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (processAlive(p)) {
    if (Date.now() > deadline) throw new Error(`process ${p} still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  home = await tempStateDir('svc-e2e-foundation-');
  env = cleanEnv({ SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() });
});

afterAll(async () => {
  if (pid && processAlive(pid)) {
    await bin(['stop']).catch(() => undefined);
    if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await removeTempDirs();
});

describe('svc-proxy foundation, end to end', () => {
  it('start runs a background daemon and prints both base URLs', async () => {
    const res = await bin(['start', '--port', '0']);
    expect(res.code, res.stderr).toBe(0);
    const runtime = JSON.parse(await readFile(join(home, 'daemon.json'), 'utf8')) as { pid: number; port: number };
    port = runtime.port;
    pid = runtime.pid;
    expect(res.stdout).toContain(`started (pid ${pid})`);
    expect(res.stdout).toContain(`http://127.0.0.1:${port}/protocol-a/v1`);
    expect(res.stdout).toContain(`http://127.0.0.1:${port}/protocol-b`);
    expect(Number((await readFile(join(home, 'daemon.pid'), 'utf8')).trim())).toBe(pid);
    expect((await readFile(join(home, 'daemon.log'), 'utf8'))).toContain(`listening on 127.0.0.1:${port}`);
    expect((await http('GET', `${origin()}/health`)).json()).toMatchObject({ status: 'ok' });
  });

  it('a second start says it is already running', async () => {
    const res = await bin(['start']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`already running (pid ${pid})`);
  });

  it('status shows pid, port, uptime, base URLs and providers', async () => {
    const res = await bin(['status']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`running \\(pid ${pid}\\) on 127\\.0\\.0\\.1:${port}, up \\d+s`));
    expect(res.stdout).toContain(`${origin()}/protocol-a/v1`);
    expect(res.stdout).toMatch(/providers: none connected; not connected: anthropic, openai, openrouter, gemini/);
    expect(res.stdout).toMatch(/memory: [\d.]+ MB resident, heap [\d.]+ MB in use/);
  });

  it('the background daemon runs with its idle collector, the V8 flags and the malloc setting it needs', async () => {
    const status = JSON.parse((await bin(['status', '--json'])).stdout) as { memory: { rssMb: number; heapUsedMb: number; idleCollections: number } };
    // a count (0, or 1 once the first idle look after start has run; idle-memory.test.ts has the rest)
    expect(Number.isInteger(status.memory.idleCollections) && status.memory.idleCollections >= 0).toBe(true);
    expect(status.memory.rssMb).toBeGreaterThan(status.memory.heapUsedMb);
    // started with the flag itself (no TurboFan for undici's WebAssembly parser) and one malloc arena
    if (process.platform === 'linux') {
      expect((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')).toEqual(expect.arrayContaining(['--no-wasm-tier-up']));
      const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      expect(environ).toContain('MALLOC_ARENA_MAX=1');
      // glibc keeps freed memory under load only where the daemon trims it when idle
      const keeps = environ.some((v) => v.startsWith('MALLOC_TRIM_THRESHOLD_='));
      expect(keeps).toBe(loadMallocTrim() !== null);
    }
  });

  it('key create → both header forms pass auth → key revoke → the very next request is 401', async () => {
    for (let round = 0; round < 3; round++) {
      const created = await bin(['key', 'create', '--name', `e2e-${round}`, '--json']);
      expect(created.code, created.stderr).toBe(0);
      const { key } = JSON.parse(created.stdout) as { key: string };
      const bearer = { authorization: `Bearer ${key}` };
      const xApiKey = { 'x-api-key': key };

      for (const headers of [bearer, xApiKey]) {
        for (const [method, path] of [
          ['GET', '/protocol-a/v1/models'],
          ['POST', '/protocol-b/v1/messages'],
        ] as const) {
          const res = await http(method, `${origin()}${path}`, { headers: { ...headers, 'content-type': 'application/json' }, body: method === 'POST' ? '{}' : undefined });
          expect(res.status, `${method} ${path}: ${res.text}`).not.toBe(401);
          expect(res.text).not.toMatch(/missing_api_key|invalid_api_key/);
        }
      }

      const revoked = await bin(['key', 'revoke', `e2e-${round}`]);
      expect(revoked.code).toBe(0);
      // No waiting: the revoke is in force when the command has returned.
      const [a, b] = [
        await http('GET', `${origin()}/protocol-a/v1/models`, { headers: bearer }),
        await http('POST', `${origin()}/protocol-b/v1/messages`, { headers: xApiKey, body: '{}' }),
      ];
      expect(a.status).toBe(401);
      expect(a.json()).toMatchObject({ error: { code: 'invalid_api_key', type: 'authentication_error' } });
      expect(b.status).toBe(401);
      expect(b.json()).toMatchObject({ type: 'error', error: { code: 'invalid_api_key' } });
    }
  });

  it('a request without a key is 401 missing_api_key on every base', async () => {
    for (const path of ['/protocol-a/v1/chat/completions', '/protocol-b/v1/messages', '/g/any/protocol-a/v1/responses', '/g/any/protocol-b/v1/messages']) {
      const res = await http('POST', `${origin()}${path}`, { body: '{}' });
      expect(res.status).toBe(401);
      expect(res.text).toContain('missing_api_key');
    }
  });

  it('provider connect reads the key from stdin; list shows where it lives; the daemon uses it', async () => {
    const secret = 'sk-ant-e2e-foundation-4242';
    const args = keychainOk ? ['provider', 'connect', 'anthropic'] : ['provider', 'connect', 'anthropic', '--insecure-storage'];
    const res = await bin(args, `${secret}\n`);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).not.toContain(secret);
    const list = JSON.parse((await bin(['provider', 'list', '--json'])).stdout) as Array<{ name: string; source: string; last4: string }>;
    expect(list[0]).toMatchObject({ name: 'anthropic', source: keychainOk ? 'keychain' : 'file', last4: '4242' });
    const status = JSON.parse((await bin(['status', '--json'])).stdout) as { providers: Array<{ name: string; connected: boolean }> };
    expect(status.providers.find((p) => p.name === 'anthropic')?.connected).toBe(true);
    if (!keychainOk) expect((await stat(join(home, 'credentials.json'))).mode & 0o777).toBe(0o600);
    for (const file of ['config.json', 'daemon.log', 'daemon.json']) expect(await readFile(join(home, file), 'utf8')).not.toContain(secret);
    expect((await bin(['provider', 'disconnect', 'anthropic'])).code).toBe(0);
    const after = JSON.parse((await bin(['status', '--json'])).stdout) as { providers: Array<{ name: string; connected: boolean }> };
    expect(after.providers.find((p) => p.name === 'anthropic')?.connected).toBe(false);
  });

  it.skipIf(keychainOk)('without a keychain, connect says so plainly unless --insecure-storage is given', async () => {
    const res = await bin(['provider', 'connect', 'openai'], 'sk-openai-nokeychain-0000\n');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/No usable OS keychain/);
    expect(res.stderr).toMatch(/--insecure-storage/);
  });

  it('notices a hand edit of config.json (hot reload) and reports an invalid one in status', async () => {
    const file = join(home, 'config.json');
    const good = JSON.parse(await readFile(file, 'utf8'));
    const created = JSON.parse((await bin(['key', 'create', '--name', 'hosts', '--json'])).stdout) as { key: string };
    const headers = { host: 'proxy.internal', authorization: `Bearer ${created.key}` };
    expect((await http('GET', `${origin()}/protocol-a/v1/models`, { headers })).status).toBe(403);

    const edited = JSON.parse(await readFile(file, 'utf8'));
    edited.settings.allowedHosts = ['proxy.internal'];
    await writeFile(file, JSON.stringify(edited, null, 2));
    const deadline = Date.now() + 8_000;
    let status = 403;
    while (status === 403 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await http('GET', `${origin()}/protocol-a/v1/models`, { headers })).status;
    }
    expect(status).not.toBe(403);

    await writeFile(file, '{"version": 2, "settings": ');
    let problem = '';
    while (!problem && Date.now() < deadline + 8_000) {
      await new Promise((r) => setTimeout(r, 100));
      problem = (await bin(['status'])).stdout;
      if (!problem.includes('NOT applied')) problem = '';
    }
    expect(problem).toContain('not valid JSON');
    // Still serving with the last good config.
    expect((await http('GET', `${origin()}/protocol-a/v1/models`, { headers })).status).not.toBe(403);
    await writeFile(file, JSON.stringify({ ...good, keys: edited.keys }, null, 2));
  });

  it('stop ends the daemon gracefully and removes its runtime files', async () => {
    const res = await bin(['stop']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`svc-proxy stopped (pid ${pid}).\n`);
    await waitGone(pid);
    for (const f of ['daemon.pid', 'daemon.json', 'admin-token']) await expect(stat(join(home, f))).rejects.toThrow();
    await expect(http('GET', `${origin()}/health`)).rejects.toThrow();
    const status = await bin(['status']);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/not running/);
    expect(await readFile(join(home, 'daemon.log'), 'utf8')).toMatch(/stopping \(admin shutdown request\)[\s\S]*stopped/);
  });

  it('SIGTERM also stops the background daemon cleanly', async () => {
    const res = await bin(['start', '--port', '0', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const started = JSON.parse(res.stdout) as { pid: number; port: number; baseUrls: { a: string; b: string } };
    pid = started.pid;
    expect(started.baseUrls.a).toBe(`http://127.0.0.1:${started.port}/protocol-a/v1`);
    process.kill(started.pid, 'SIGTERM');
    await waitGone(started.pid);
    await expect(stat(join(home, 'daemon.pid'))).rejects.toThrow();
    expect(await readFile(join(home, 'daemon.log'), 'utf8')).toContain('stopping (SIGTERM)');
  });

  it('start fails with a clear message on an invalid config.json, and leaves it untouched', async () => {
    const file = join(home, 'config.json');
    const good = await readFile(file, 'utf8');
    await writeFile(file, '{"version": 2, "settings": {"port": "eighty"}}');
    const res = await bin(['start', '--port', '0']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(file);
    expect(res.stderr).toContain('settings.port');
    expect(await readFile(file, 'utf8')).toBe('{"version": 2, "settings": {"port": "eighty"}}');
    await expect(stat(join(home, 'daemon.pid'))).rejects.toThrow();
    await writeFile(file, good);
  });

  it('start reports a daemon that cannot listen (port taken) with its own words', async () => {
    const blocker = (await import('node:net')).createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const res = await bin(['start', '--port', String(taken)]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`127.0.0.1:${taken} is already in use`);
      expect(res.stderr).toContain('daemon.log');
    } finally {
      blocker.close();
    }
  });

  it('restart keeps keys and providers; start, restart and stop --json report what they did', async () => {
    const firstOut = JSON.parse((await bin(['start', '--port', '0', '--json'])).stdout) as Record<string, unknown>;
    expect(Object.keys(firstOut).sort()).toEqual((await documentedJsonKeys(['start'])).sort());
    const first = firstOut as { pid: number };
    const { key } = JSON.parse((await bin(['key', 'create', '--name', 'survives-restart', '--json'])).stdout) as { key: string };
    const res = await bin(['restart', '--port', '0']);
    expect(res.code, res.stderr).toBe(0);
    // the words `stop` uses
    expect(res.stdout).toContain(`svc-proxy stopped (pid ${first.pid}).\n`);
    await waitGone(first.pid);
    const runtime = JSON.parse(await readFile(join(home, 'daemon.json'), 'utf8')) as { pid: number; port: number };
    expect(runtime.pid).not.toBe(first.pid);
    pid = runtime.pid;
    const call = await http('GET', `http://127.0.0.1:${runtime.port}/protocol-a/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(call.status).not.toBe(401);
    // --json: the new daemon as start gives it, the one stopped, and no login service here
    const again = await bin(['restart', '--port', '0', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const restarted = JSON.parse(again.stdout) as { pid: number; port: number };
    expect(Object.keys(restarted).sort()).toEqual((await documentedJsonKeys(['restart'])).sort());
    expect(restarted).toEqual({
      pid: restarted.pid,
      host: '127.0.0.1',
      port: restarted.port,
      baseUrls: { a: `http://127.0.0.1:${restarted.port}/protocol-a/v1`, b: `http://127.0.0.1:${restarted.port}/protocol-b` },
      stoppedPid: runtime.pid,
      forced: false,
      byLoginService: false,
    });
    await waitGone(runtime.pid);
    expect(JSON.parse(await readFile(join(home, 'daemon.json'), 'utf8'))).toMatchObject({ pid: restarted.pid, port: restarted.port });
    pid = restarted.pid;
    expect((await http('GET', `http://127.0.0.1:${restarted.port}/health`)).status).toBe(200);
    const stopped = JSON.parse((await bin(['stop', '--json'])).stdout);
    expect(stopped).toEqual({ stopped: true, pid: restarted.pid, forced: false });
    await waitGone(restarted.pid);
    // and with no daemon to stop
    const fresh = JSON.parse((await bin(['restart', '--port', '0', '--json'])).stdout) as { pid: number; stoppedPid: number | null; forced: boolean };
    expect(fresh.stoppedPid).toBeNull();
    expect(fresh.forced).toBe(false);
    pid = fresh.pid;
    expect(JSON.parse((await bin(['stop', '--json'])).stdout)).toEqual({ stopped: true, pid: fresh.pid, forced: false });
    await waitGone(fresh.pid);
    expect(JSON.parse((await bin(['stop', '--json'])).stdout)).toEqual({ stopped: false, running: false });
  });

  /** `start --foreground` as a child with piped output, once it printed its bases. */
  async function startForeground() {
    const child = spawn(process.execPath, [BIN, 'start', '--foreground', '--port', '0'], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const seen = { out: '' };
    child.stdout.on('data', (c: Buffer) => (seen.out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (seen.out += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const deadline = Date.now() + 10_000;
    while (!/protocol-b/.test(seen.out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const fgPort = Number(/127\.0\.0\.1:(\d+)\/protocol-a\/v1/.exec(seen.out)?.[1]);
    expect((await http('GET', `http://127.0.0.1:${fgPort}/health`)).status).toBe(200);
    return { child, seen, exited, fgPort };
  }

  it('start --foreground runs in the terminal and stops on SIGINT', async () => {
    const { child, seen, exited } = await startForeground();
    const out = (): string => seen.out;
    expect(out()).toMatch(/running in the foreground \(pid \d+\)/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(out()).toContain('stopping (SIGINT)');
    await expect(stat(join(home, 'daemon.pid'))).rejects.toThrow();
  });

  it('start --foreground keeps serving when its stdout/stderr pipe closes; its log goes on in daemon.log', async () => {
    const { child, exited, fgPort } = await startForeground();
    // the reader goes away, as `… | tee x` with tee killed
    child.stdout.destroy();
    child.stderr.destroy();
    // earlier tests' daemons wrote there too: only what comes after counts
    const before = (await readFile(join(home, 'daemon.log'), 'utf8').catch(() => '')).length;
    // a log line: an edit that is not valid JSON
    const configPath = join(home, 'config.json');
    const good = await readFile(configPath, 'utf8');
    await writeFile(configPath, '{ broken');
    const logged = Date.now() + 5_000;
    const daemonLog = async () => (await readFile(join(home, 'daemon.log'), 'utf8').catch(() => '')).slice(before);
    while (!/config\.json edit not applied/.test(await daemonLog()) && Date.now() < logged) await new Promise((r) => setTimeout(r, 50));
    await writeFile(configPath, good);
    expect(child.exitCode).toBeNull();
    expect((await http('GET', `http://127.0.0.1:${fgPort}/health`)).status).toBe(200);
    const text = await daemonLog();
    expect(text).toMatch(/output stream is closed \(EPIPE\); the daemon goes on, logging here\n.*config\.json edit not applied/);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(await daemonLog()).toContain('stopped');
  });

  it('--version is quick and loads no command', async () => {
    const started = Date.now();
    const res = await bin(['--version']);
    const ms = Date.now() - started;
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // Generous bound for a loaded CI box; the README states the measured number.
    expect(ms).toBeLessThan(1_500);
  });
});
