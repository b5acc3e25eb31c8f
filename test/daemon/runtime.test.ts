import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { logsDir } from '../../src/log/paths.js';
import { spawn } from 'node:child_process';
import { findDaemon, stopDaemon } from '../../src/daemon/control.js';
import { AlreadyRunningError, isOurProcess, processStartTime } from '../../src/daemon/runtime-file.js';
import { StartError, startDaemon } from '../../src/daemon/runtime.js';
import { silentLogger } from '../../src/daemon/logger.js';
import { closeUpstreamPools, upstreamRequest } from '../../src/providers/upstream-client.js';
import { streamedText } from '../fixtures/streamed-text.js';
import type { ProxyDeps } from '../../src/routing/proxy-handler.js';
import { http, removeTempDirs, runCli, tempStateDir } from './harness.js';
import { startInProcess, type InProcessDaemon } from './in-process.js';

const daemons: InProcessDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.daemon.stop('test done')));
  await removeTempDirs();
});

async function start(opts: Parameters<typeof startInProcess>[0] = {}) {
  const d = await startInProcess(opts);
  daemons.push(d);
  return d;
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('daemon runtime', () => {
  it('writes pid, runtime info and a 0600 admin token, serves /health, and cleans up on stop', async () => {
    const d = await start();
    const paths = d.daemon.paths;
    expect(Number((await readFile(paths.pidFile, 'utf8')).trim())).toBe(process.pid);
    expect(JSON.parse(await readFile(paths.runtimeFile, 'utf8'))).toMatchObject({ pid: process.pid, host: '127.0.0.1', port: d.daemon.port });
    expect((await stat(paths.adminToken)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.dir)).mode & 0o777).toBe(0o700);
    expect(d.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(await readFile(paths.config, 'utf8')).version).toBe(2); // defaults written for hand editing
    const health = await http('GET', `${d.origin}/health`);
    expect(health.json()).toEqual({ status: 'ok', version: expect.any(String) });
    expect(d.daemon.baseUrls).toEqual({ a: `${d.origin}/protocol-a/v1`, b: `${d.origin}/protocol-b` });

    await d.daemon.stop();
    daemons.pop();
    for (const f of [paths.pidFile, paths.runtimeFile, paths.adminToken]) await expect(stat(f)).rejects.toThrow();
  });

  it('refuses a second daemon on the same state dir, and clears a stale pid file', async () => {
    const dir = await tempStateDir();
    await writeFile(statePaths(dir).pidFile, '999999999\n');
    const d = await start({ stateDir: dir });
    await expect(startDaemon({ stateDir: dir, port: 0, logger: silentLogger })).rejects.toBeInstanceOf(AlreadyRunningError);
    // The refused start did not disturb the running one.
    expect((await http('GET', `${d.origin}/health`)).status).toBe(200);
    expect(Number((await readFile(statePaths(dir).pidFile, 'utf8')).trim())).toBe(process.pid);
  });

  it.runIf(process.platform === 'linux')('a pid reused since the daemon died is not the daemon: start goes ahead, stop signals nobody', async () => {
    // `named` has svc-proxy in its command line, as `tail -f ~/.config/svc-proxy/daemon.log` does; `stranger` has not
    const dir = await tempStateDir();
    const paths = statePaths(dir);
    const stranger = spawn('sleep', ['30'], { stdio: 'ignore' });
    const named = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)', 'svc-proxy'], { stdio: 'ignore' });
    try {
      await until(() => processStartTime(named.pid!) !== undefined && processStartTime(stranger.pid!) !== undefined);
      // a process that is not the daemon, alive, with no start time recorded by an older version: its command line decides
      expect(isOurProcess(stranger.pid!)).toBe(false);
      expect(isOurProcess(named.pid!)).toBe(true);
      const own = processStartTime(process.pid)!;
      expect(isOurProcess(process.pid, own)).toBe(true);
      expect(isOurProcess(named.pid!, processStartTime(named.pid!))).toBe(true);
      // the daemon that wrote these files started at another time than the process now holding its pid
      const otherStart = String(Number(processStartTime(named.pid!)) - 1);
      expect(isOurProcess(named.pid!, otherStart)).toBe(false);
      await writeFile(paths.pidFile, `${named.pid}\n`);
      await writeFile(paths.runtimeFile, JSON.stringify({ pid: named.pid, host: '127.0.0.1', port: 9, startedAt: new Date().toISOString(), version: '0.0.0', procStart: otherStart }));
      expect(await findDaemon(paths, null)).toBeNull();
      expect(await stopDaemon(paths, 500, null)).toBeNull();
      expect(named.exitCode).toBeNull(); // not signalled
      // a container restarted: the new daemon has the dead one's pid (1 there; this process here)
      const dir2 = await tempStateDir();
      const paths2 = statePaths(dir2);
      await writeFile(paths2.pidFile, `${process.pid}\n`);
      await writeFile(paths2.runtimeFile, JSON.stringify({ pid: process.pid, host: '127.0.0.1', port: 9, startedAt: new Date().toISOString(), version: '0.0.0', procStart: String(Number(own) - 1) }));
      const d = await start({ stateDir: dir });
      const d2 = await start({ stateDir: dir2 });
      expect((await http('GET', `${d.origin}/health`)).status).toBe(200);
      expect((await http('GET', `${d2.origin}/health`)).status).toBe(200);
      // what they wrote names them exactly
      expect(JSON.parse(await readFile(paths.runtimeFile, 'utf8'))).toMatchObject({ pid: process.pid, procStart: own });
      expect(await findDaemon(paths2, null)).toMatchObject({ pid: process.pid, port: d2.daemon.port });
    } finally {
      stranger.kill();
      named.kill();
    }
  });

  it('writes daemon.pid and daemon.json again when they are deleted while it runs; commands find it again', async () => {
    const d = await start({ runtimeFileCheckMs: 50 });
    const paths = d.daemon.paths;
    const before = await readFile(paths.runtimeFile, 'utf8');
    const { unlink } = await import('node:fs/promises');
    await unlink(paths.runtimeFile);
    await unlink(paths.pidFile);
    expect(await findDaemon(paths, null)).toBeNull();
    await until(async () => (await findDaemon(paths, null)) !== null);
    expect(await readFile(paths.runtimeFile, 'utf8')).toBe(before);
    expect(Number((await readFile(paths.pidFile, 'utf8')).trim())).toBe(process.pid);
    await until(() => d.logLines.some((l) => l.includes('daemon.pid and daemon.json had been deleted while the daemon runs; written again')));
  });

  it('until a hand-deleted daemon.json is written again, status, start and stop wait for it instead of taking the daemon for stopped', async () => {
    // stop is not run here: it would wait for this very process to end; it finds the daemon as findDaemon does
    const d = await start({ runtimeFileCheckMs: 400 });
    const paths = d.daemon.paths;
    const env = { SVC_PROXY_HOME: paths.dir };
    const { unlink } = await import('node:fs/promises');
    await unlink(paths.runtimeFile);
    const [status, started] = await Promise.all([runCli(['status', '--json'], { env }), runCli(['start', '--json'], { env })]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid: process.pid, port: d.daemon.port });
    expect(started.code, started.stderr).toBe(0);
    expect(JSON.parse(started.stdout)).toMatchObject({ pid: process.pid, port: d.daemon.port, alreadyRunning: true });
    await unlink(paths.runtimeFile);
    expect(await findDaemon(paths, null)).toMatchObject({ pid: process.pid, port: d.daemon.port });
  });

  it('says clearly when the port is taken, leaving nothing behind', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    const dir = await tempStateDir();
    try {
      const err = await startDaemon({ stateDir: dir, port, logger: silentLogger }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartError);
      expect((err as Error).message).toContain(`127.0.0.1:${port} is already in use`);
      await expect(stat(statePaths(dir).pidFile)).rejects.toThrow();
    } finally {
      blocker.close();
    }
  });

  it('refuses to start when daemon.json cannot be written, naming it, and lets the port go', async () => {
    const dir = await tempStateDir();
    const paths = statePaths(dir);
    // a directory in the way: the file cannot be put there
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(paths.runtimeFile, 'in-the-way'), { recursive: true });
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const err = await startDaemon({ stateDir: dir, port, logger: silentLogger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toContain(`Could not write ${paths.runtimeFile}`);
    await expect(stat(paths.pidFile)).rejects.toThrow();
    const again = createServer();
    await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
    again.close();
  });

  it('listens beyond loopback only when --host says so explicitly', async () => {
    const dir = await tempStateDir();
    await writeFile(statePaths(dir).config, JSON.stringify({ version: 2, settings: { host: '0.0.0.0' } }));
    const err = await startDaemon({ stateDir: dir, port: 0, logger: silentLogger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toContain('--host 0.0.0.0');
  });

  it('refuses to start on an invalid config.json, naming the file', async () => {
    const dir = await tempStateDir();
    await writeFile(statePaths(dir).config, '{ nope');
    await expect(startDaemon({ stateDir: dir, port: 0, logger: silentLogger })).rejects.toThrow(statePaths(dir).config);
  });

  it('refuses to start with a body budget smaller than the body limit, naming the setting', async () => {
    const dir = await tempStateDir();
    await writeFile(statePaths(dir).config, JSON.stringify({ version: 2, settings: { bodyLimitBytes: 2048, bodyBudgetBytes: 1024 } }));
    await expect(startDaemon({ stateDir: dir, port: 0, logger: silentLogger })).rejects.toThrow(/settings\.bodyBudgetBytes: 1024 is less than bodyLimitBytes \(2048\)/);
  });

  it('keeps its body budget when a hand edit sets it below the body limit, and says why', async () => {
    const d = await start();
    const file = d.daemon.paths.config;
    const config = JSON.parse(await readFile(file, 'utf8')) as { settings: Record<string, unknown> };
    await writeFile(file, JSON.stringify({ ...config, settings: { ...config.settings, bodyBudgetBytes: 1024 } }));
    await until(async () => ((await d.admin('GET', '/admin/status')).json() as { configProblem: unknown }).configProblem !== null);
    const status = (await d.admin('GET', '/admin/status')).json() as { configProblem: { message: string }; memory: { requestBodyBudgetBytes: number } };
    expect(status.configProblem.message).toContain('settings.bodyBudgetBytes: 1024 is less than bodyLimitBytes');
    expect(status.memory.requestBodyBudgetBytes).toBe(512 * 1024 * 1024);
  });

  it('gives the proxy credentials from the environment and config snapshots', async () => {
    const d = await start({ env: { OPENAI_API_KEY: 'sk-env-openai-1234', SVC_PROXY_KEYCHAIN_SERVICE: 'svc-proxy-test-none' } });
    expect(d.deps.credential('openai')).toBe('sk-env-openai-1234');
    expect(d.deps.credential('anthropic')).toBeUndefined();
    expect(d.deps.config().settings.port).toBe(4545);
  });

  it('applies a hand edit of config.json without a restart (revoking a key by hand works at once)', async () => {
    const d = await start();
    const created = (await d.admin('POST', '/admin/keys', { name: 'hand' })).json() as { key: string };
    const url = `${d.origin}/protocol-a/v1/models`;
    expect((await http('GET', url, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(200);

    const file = d.daemon.paths.config;
    const config = JSON.parse(await readFile(file, 'utf8'));
    config.keys[0].revoked = new Date().toISOString();
    config.settings.allowedHosts = ['proxy.internal'];
    await writeFile(file, JSON.stringify(config, null, 2));
    await until(async () => (await http('GET', url, { headers: { authorization: `Bearer ${created.key}` } })).status === 401);
    expect(d.deps.config().settings.allowedHosts).toEqual(['proxy.internal']);
    // the edit applies under the config lock; the log line follows once the lock is let go
    await until(() => d.logLines.some((l) => l.includes('reloaded')));
  });

  it('puts requests refused before the routing handler (401, 403, 404, 405) in the request log, where `logs` finds them', async () => {
    const d = await start();
    const created = (await d.admin('POST', '/admin/keys', { name: 'tool' })).json() as { key: string; id: string };
    const key = { authorization: `Bearer ${created.key}` };
    const statuses = [
      (await http('POST', `${d.origin}/protocol-a/v1/chat/completions`, { headers: { authorization: 'Bearer sk-svc-proxy-wrongwrongwrong' }, body: '{}' })).status,
      (await http('POST', `${d.origin}/protocol-b/v1/messages`, { headers: { host: 'evil.example', ...key }, body: '{}' })).status,
      (await http('POST', `${d.origin}/protocol-a/v1/embeddings`, { headers: key, body: '{}' })).status,
      (await http('GET', `${d.origin}/protocol-a/v1/chat/completions`, { headers: key })).status,
      (await http('GET', `${d.origin}/g/team/protocol-b/v1/messages`, { headers: key })).status,
    ];
    expect(statuses).toEqual([401, 403, 404, 405, 405]);
    type Listed = { entries: Array<{ status: number; errorCode?: string; keyId?: string; path?: string; base: string; endpoint: string }> };
    let entries: Listed['entries'] = [];
    await until(async () => {
      entries = ((await d.admin('GET', '/admin/logs?status=4xx')).json() as Listed).entries;
      return entries.length >= 5;
    });
    // a wrong method names the endpoint of the path it hit (and its base), as a known route does
    expect(entries.map((e) => `${e.status} ${e.errorCode} ${e.keyId ?? '-'} ${e.path ?? `${e.base} ${e.endpoint}`}`).reverse()).toEqual([
      '401 invalid_api_key - provider chat',
      '403 forbidden_host - provider messages',
      `404 unsupported_endpoint ${created.id} /protocol-a/v1/embeddings`,
      `405 method_not_allowed ${created.id} provider chat`,
      `405 method_not_allowed ${created.id} group:team messages`,
    ]);
    // and in the file the CLI reads when the daemon is not running
    await d.daemon.stop();
    daemons.pop();
    const file = await readFile(join(logsDir(d.dir), 'requests.jsonl'), 'utf8');
    expect(file).toContain('"errorCode":"invalid_api_key"');
    expect(file).not.toContain('wrongwrongwrong');
  });

  it('keeps the last good config after an invalid hand edit, reports it, and recovers when fixed', async () => {
    const d = await start();
    const created = (await d.admin('POST', '/admin/keys', { name: 'survivor' })).json() as { key: string };
    const file = d.daemon.paths.config;
    const good = await readFile(file, 'utf8');
    await writeFile(file, good.replace('"port": 4545', '"port": "not a number"'));
    await until(async () => ((await d.admin('GET', '/admin/status')).json() as { configProblem: unknown }).configProblem !== null);
    const status = (await d.admin('GET', '/admin/status')).json() as { configProblem: { message: string } };
    expect(status.configProblem.message).toContain('settings.port');
    expect(d.logLines.some((l) => l.startsWith('error') && l.includes('settings.port'))).toBe(true);
    // Still serving with the previous config: the key works.
    expect((await http('GET', `${d.origin}/protocol-b/v1/models`, { headers: { 'x-api-key': created.key } })).status).toBe(200);
    // Writes through the admin API refuse to overwrite the broken file.
    const refused = await d.admin('POST', '/admin/keys', { name: 'another' });
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'config_invalid' } });
    expect(await readFile(file, 'utf8')).toContain('not a number');

    await writeFile(file, good);
    await until(async () => ((await d.admin('GET', '/admin/status')).json() as { configProblem: unknown }).configProblem === null);
  });

  it('a key revoked while config.json is broken is refused at once, and the revocation is saved once the file is fixed', async () => {
    const d = await start();
    const leaked = (await d.admin('POST', '/admin/keys', { name: 'leaked' })).json() as { key: string; id: string };
    const kept = (await d.admin('POST', '/admin/keys', { name: 'kept' })).json() as { key: string };
    const file = d.daemon.paths.config;
    const good = await readFile(file, 'utf8');
    await writeFile(file, good.replace('"port": 4545', '"port": "oops"'));
    await until(async () => ((await d.admin('GET', '/admin/status')).json() as { configProblem: unknown }).configProblem !== null);
    const revoked = await d.admin('POST', '/admin/keys/revoke', { key: 'leaked' });
    expect(revoked.status).toBe(200);
    expect(revoked.json()).toMatchObject({ id: leaked.id, alreadyRevoked: false, saved: false, unsavedBecause: expect.stringContaining('settings.port') });
    const models = `${d.origin}/protocol-b/v1/models`;
    expect((await http('GET', models, { headers: { 'x-api-key': leaked.key } })).status).toBe(401);
    expect((await http('GET', models, { headers: { 'x-api-key': kept.key } })).status).toBe(200);
    expect(await readFile(file, 'utf8')).toContain('"oops"'); // the broken file is not overwritten
    // fixed by hand (the key still active in it): the revocation is written, and holds
    await writeFile(file, good);
    await until(async () => ((JSON.parse(await readFile(file, 'utf8')) as { keys: Array<{ id: string; revoked?: string }> }).keys.find((k) => k.id === leaked.id)?.revoked ?? null) !== null);
    expect((await http('GET', models, { headers: { 'x-api-key': leaked.key } })).status).toBe(401);
    expect((await http('GET', models, { headers: { 'x-api-key': kept.key } })).status).toBe(200);
  });

  it('keeps serving with the config it had while config.json is moved away, and says so', async () => {
    const d = await start();
    const created = (await d.admin('POST', '/admin/keys', { name: 'kept' })).json() as { key: string };
    const file = d.daemon.paths.config;
    await rename(file, `${file}.editing`);
    await until(async () => ((await d.admin('GET', '/admin/status')).json() as { configProblem: unknown }).configProblem !== null);
    const status = (await d.admin('GET', '/admin/status')).json() as { configProblem: { message: string } };
    expect(status.configProblem.message).toContain('is gone');
    // the key still works (the defaults would have no key), and nothing was written in the file's place
    expect((await http('GET', `${d.origin}/protocol-b/v1/models`, { headers: { 'x-api-key': created.key } })).status).toBe(200);
    expect((await d.admin('POST', '/admin/keys', { name: 'another' })).status).toBe(409);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    await rename(`${file}.editing`, file);
    await until(async () => ((await d.admin('GET', '/admin/status')).json() as { configProblem: unknown }).configProblem === null);
    expect((await d.admin('POST', '/admin/keys', { name: 'another' })).status).toBe(201);
  });

  it('records key last-used times in memory and writes them in batches', async () => {
    const d = await start({ lastUsedFlushMs: 150 });
    const created = (await d.admin('POST', '/admin/keys', { name: 'used' })).json() as { key: string; id: string };
    for (let i = 0; i < 5; i++) await http('GET', `${d.origin}/protocol-a/v1/models`, { headers: { 'x-api-key': created.key } });
    // The listing shows the use before it is flushed…
    const listed = (await d.admin('GET', '/admin/keys')).json() as { keys: Array<{ lastUsed: string | null }> };
    expect(listed.keys[0]?.lastUsed).not.toBeNull();
    // …and the file gets it in a batch.
    await until(async () => JSON.parse(await readFile(d.daemon.paths.config, 'utf8')).keys[0].lastUsed !== null);
  });

  it('flushes last-used times on stop', async () => {
    const d = await start({ lastUsedFlushMs: 60_000 });
    const created = (await d.admin('POST', '/admin/keys', { name: 'at-stop' })).json() as { key: string };
    await http('GET', `${d.origin}/protocol-a/v1/models`, { headers: { 'x-api-key': created.key } });
    expect(JSON.parse(await readFile(d.daemon.paths.config, 'utf8')).keys[0].lastUsed).toBeNull();
    await d.daemon.stop();
    daemons.pop();
    expect(JSON.parse(await readFile(d.daemon.paths.config, 'utf8')).keys[0].lastUsed).not.toBeNull();
  });

  it('drains in-flight requests on stop (settings.drainTimeoutMs)', async () => {
    let deps: ProxyDeps | undefined;
    let handling = false;
    const d = await start({
      createProxyHandler: (x) => {
        deps = x;
        return {
          async handle(_req, res) {
            handling = true;
            res.writeHead(200);
            res.write('first ');
            await new Promise((r) => setTimeout(r, 400));
            res.end('last');
          },
          async close() {},
        };
      },
    });
    expect(deps).toBeDefined();
    const created = (await d.admin('POST', '/admin/keys', { name: 'drain' })).json() as { key: string };
    const pending = http('POST', `${d.origin}/protocol-b/v1/messages`, { headers: { 'x-api-key': created.key } });
    while (!handling) await new Promise((r) => setTimeout(r, 5));
    const stopping = d.daemon.stop('test');
    daemons.pop();
    expect((await pending).text).toBe('first last');
    await stopping;
    await d.daemon.stopped;
  });

  /** A daemon whose handler calls a real upstream on 127.0.0.1 through the upstream client, counting its connections. */
  async function startWithUpstream(opts: Parameters<typeof startInProcess>[0]) {
    const upstream = createHttpServer((_req, res) => res.end('upstream says hi'));
    const seen = { accepted: 0 };
    upstream.on('connection', () => seen.accepted++);
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/x`;
    const d = await start({
      ...opts,
      createProxyHandler: () => ({
        async handle(_req, res) {
          const up = await upstreamRequest({ url, method: 'GET', headers: {}, connectTimeoutMs: 2004, headersTimeoutMs: 2000, idleTimeoutMs: 2000 });
          res.end(await streamedText(up, url));
        },
        async close() {},
      }),
    });
    const { key } = (await d.admin('POST', '/admin/keys', { name: 'upstream' })).json() as { key: string };
    return {
      d,
      seen,
      ask: async () => {
        const text = (await http('POST', `${d.origin}/protocol-b/v1/messages`, { headers: { 'x-api-key': key } })).text;
        await new Promise((r) => setTimeout(r, 20)); // undici marks the connection free a moment after the body's end
        return text;
      },
      close: async () => {
        await closeUpstreamPools(200);
        upstream.close();
      },
    };
  }

  it('logs a sleep of the machine and retires the upstream connections made before it', async () => {
    const t = { wall: Date.now(), mono: 0 };
    const u = await startWithUpstream({ sleepClocks: { wallMs: () => t.wall, monoMs: () => t.mono } });
    try {
      expect(await u.ask()).toBe('upstream says hi');
      expect(await u.ask()).toBe('upstream says hi');
      expect(u.seen.accepted).toBe(1);
      t.wall += 3 * 3_600_000;
      expect(await u.ask()).toBe('upstream says hi');
      expect(u.seen.accepted).toBe(2);
      expect(u.d.logLines).toContain('info the machine slept for about 180 min: the upstream connections opened before it are not used again (1 pool retired)');
    } finally {
      await u.close();
    }
  });

  it('logs a change of network (a VPN coming up) and retires the upstream connections made before it', async () => {
    const wlan0 = [{ address: '192.168.1.20', netmask: '255.255.255.0', family: 'IPv4' as const, mac: '02:00:00:00:00:01', internal: false, cidr: null }];
    let interfaces: Record<string, typeof wlan0> = { wlan0 };
    const u = await startWithUpstream({ networkWatch: { everyMs: 50, interfaces: () => interfaces } });
    try {
      expect(await u.ask()).toBe('upstream says hi');
      expect(await u.ask()).toBe('upstream says hi');
      expect(u.seen.accepted).toBe(1);
      interfaces = { wlan0, tun0: [{ ...wlan0[0], address: '10.8.0.2' }] };
      const logged = 'info the network changed (addresses new on tun0): the upstream connections opened before it are not used again (1 pool retired)';
      await until(() => u.d.logLines.includes(logged));
      expect(await u.ask()).toBe('upstream says hi');
      expect(u.seen.accepted).toBe(2);
    } finally {
      await u.close();
    }
  });

  it('cuts a request under way whose connection was made from an address the machine no longer has', async () => {
    // an upstream that sends its headers and a first event, then nothing (a connection the network took)
    const upstream = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/x`;
    // the fake interface list names the loopback address as the machine's external one, so taking it away strands the connection
    const eth0 = [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4' as const, mac: '02:00:00:00:00:02', internal: false, cidr: null }];
    let interfaces: Record<string, typeof eth0> = { eth0 };
    let reading = false;
    const d = await start({
      networkWatch: { everyMs: 50, interfaces: () => interfaces },
      createProxyHandler: () => ({
        async handle(_req, res) {
          const up = await upstreamRequest({ url, method: 'GET', headers: {}, connectTimeoutMs: 2000, headersTimeoutMs: 2000, idleTimeoutMs: 60_000 });
          reading = true;
          res.end(await streamedText(up, url).catch((err: { code?: string }) => `failed: ${err.code}`));
        },
        async close() {},
      }),
    });
    try {
      const { key } = (await d.admin('POST', '/admin/keys', { name: 'stranded' })).json() as { key: string };
      const pending = http('POST', `${d.origin}/protocol-b/v1/messages`, { headers: { 'x-api-key': key } });
      await until(() => reading);
      interfaces = {};
      // a reset, not the idle timeout's upstream_timeout: the cut ended it
      expect((await pending).text).toBe('failed: upstream_reset');
      expect(d.logLines).toContain('info 1 upstream connection made from an address now gone was cut: its request fails as a reset now rather than at the idle timeout');
    } finally {
      await closeUpstreamPools(200);
      upstream.closeAllConnections();
      upstream.close();
    }
  });

  it('stops on an admin shutdown request', async () => {
    const d = await start();
    const res = await d.admin('POST', '/admin/shutdown');
    expect(res.status).toBe(202);
    await d.daemon.stopped;
    daemons.pop();
    await expect(stat(d.daemon.paths.runtimeFile)).rejects.toThrow();
  });
});
