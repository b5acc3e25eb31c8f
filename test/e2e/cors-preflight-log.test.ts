/**
 * A browser-based tool that fails on CORS is hard to debug without its preflights: each one is in
 * the request log, as any request is — one entry, marked `preflight`, with the endpoint it asks
 * about, the answer's status and the page's origin — whether the CORS policy answered it (204, 403
 * for an origin not listed) or, without settings.corsOrigins, it was refused as a request without
 * a key (401).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { parseEntries, startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { send } from '../hardening/helpers.js';

let d: TestDaemon;

beforeAll(async () => {
  d = await startDaemon({ settings: { corsOrigins: ['https://app.example'] } });
}, 60_000);
afterAll(() => stopDaemon(d));

const preflight = (path: string, origin: string, method = 'POST') =>
  send(d, path, { method: 'OPTIONS', key: null, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' } });

const preflights = (entries: RequestLogEntry[]) => entries.filter((e) => e.preflight);
const shape = (e: RequestLogEntry) => ({ endpoint: e.endpoint, status: e.status, errorCode: e.errorCode, origin: e.origin, path: e.path });

describe('CORS preflights in the request log', () => {
  it('each answered preflight is one entry with its endpoint, status and origin, in the admin API and the log file', async () => {
    expect((await preflight('/protocol-a/v1/chat/completions', 'https://app.example')).status).toBe(204);
    expect((await preflight('/protocol-b/v1/messages', 'https://evil.example')).status).toBe(403);
    expect((await preflight('/protocol-a/v1/no-such-thing', 'https://app.example')).status).toBe(204);
    const logged = preflights(await d.logs((e) => preflights(e).length >= 3));
    const expected = [
      { endpoint: 'chat', status: 204, errorCode: undefined, origin: 'https://app.example', path: undefined },
      { endpoint: 'messages', status: 403, errorCode: 'cors_origin_not_allowed', origin: 'https://evil.example', path: undefined },
      { endpoint: 'unknown', status: 204, errorCode: undefined, origin: 'https://app.example', path: '/protocol-a/v1/no-such-thing' },
    ];
    expect(logged.map(shape)).toEqual(expected);
    const token = (await readFile(join(d.home, 'admin-token'), 'utf8')).trim();
    const admin = await send(d, '/admin/logs?limit=50', { key: token });
    const fromAdmin = (admin.json as { entries: RequestLogEntry[] }).entries;
    expect(preflights(fromAdmin).map(shape).sort((a, b) => a.endpoint.localeCompare(b.endpoint))).toEqual([...expected].sort((a, b) => a.endpoint.localeCompare(b.endpoint)));
    const files = await readdir(join(d.home, 'logs'));
    const onDisk = (await Promise.all(files.map((f) => readFile(join(d.home, 'logs', f), 'utf8')))).flatMap(parseEntries);
    expect(preflights(onDisk).map(shape)).toEqual(expected);
    const table = await d.cli(['logs', '-n', '10']);
    expect(table.stdout).toContain('preflight chat');
  });

  it('stats leave preflights out: they are no model request, and a refused one is no error', async () => {
    const requests = (await d.logs()).filter((e) => !e.preflight);
    const stats = JSON.parse((await d.cli(['stats', '--json'])).stdout) as { total: { requests: number; errors: number }; rows: Array<{ name: string }> };
    expect(stats.total).toMatchObject({ requests: requests.length, errors: requests.filter((e) => e.status >= 400).length });
    expect(stats.rows.map((r) => r.name)).not.toContain('(none)');
  });

  it('a preflight costs the log one entry, as any request does', async () => {
    const before = preflights(await d.logs()).length;
    for (let i = 0; i < 40; i++) await preflight('/protocol-a/v1/responses', 'https://app.example');
    const after = await d.logs((e) => preflights(e).length >= before + 40);
    expect(preflights(after).length).toBe(before + 40);
    expect(after.filter((e) => e.preflight && e.endpoint === 'responses').every((e) => e.requestBody === undefined && e.attempts.length === 0)).toBe(true);
  });

  it('without corsOrigins a preflight is refused as a request without a key, and logged as a preflight', async () => {
    const configPath = join(d.home, 'config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as { settings: Record<string, unknown> };
    config.settings.corsOrigins = [];
    await writeFile(configPath, JSON.stringify(config, null, 2));
    await d.cli(['config', 'reload']);
    expect((await preflight('/protocol-a/v1/models', 'https://app.example', 'GET')).status).toBe(401);
    const logged = await d.logs((e) => e.some((x) => x.preflight && x.endpoint === 'models'));
    expect(logged.filter((e) => e.preflight && e.endpoint === 'models').map(shape)).toEqual([{ endpoint: 'models', status: 401, errorCode: 'missing_api_key', origin: 'https://app.example', path: undefined }]);
  });
});
