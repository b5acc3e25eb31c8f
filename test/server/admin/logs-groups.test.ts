/** The admin API's groups, logs and stats resources, in-process through the real admin app. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../../src/config/paths.js';
import { ConfigStore } from '../../../src/config/store.js';
import type { RequestLogEntry } from '../../../src/log/entry.js';
import type { StatsReport } from '../../../src/log/stats.js';
import { createRequestLog, type RequestLog } from '../../../src/log/writer.js';
import type { AdminContext } from '../../../src/server/admin/context.js';
import { createAdminApp } from '../../../src/server/admin/index.js';
import { makeEntry } from '../../log/make-entry.js';

const TOKEN = 'test-admin-token';
let dir: string;
let app: Hono;
let log: RequestLog;
let store: ConfigStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-admin-'));
  store = await ConfigStore.open(statePaths(dir));
  log = createRequestLog({ dir: join(dir, 'logs'), settings: () => store.current().settings });
  const connected = new Set(['anthropic']);
  const ctx = {
    store,
    log,
    credentials: { resolve: async (slug: string) => (connected.has(slug) ? { value: 'x', source: 'env' } : undefined) },
    daemon: { pid: 1, host: '127.0.0.1', port: 4545, startedAt: new Date(), stateDir: dir },
  } as unknown as AdminContext;
  app = await createAdminApp(ctx, { adminToken: TOKEN, report: (err) => console.error(err) });
});
afterAll(async () => {
  await log.close();
  await rm(dir, { recursive: true, force: true });
});

async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

describe('/admin/groups', () => {
  it('CRUD with the same validation and errors as the CLI', async () => {
    expect(await call('POST', '/admin/groups', { slug: 'coding', models: [{ name: 'a/b.c', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5'] }] })).toMatchObject({
      status: 201,
      body: { slug: 'coding', models: [{ name: 'a/b.c', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5'] }] },
    });
    expect(await call('POST', '/admin/groups', { slug: 'coding' })).toMatchObject({ status: 409, body: { error: { code: 'group_exists' } } });
    expect(await call('POST', '/admin/groups', { slug: 'Bad!' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_slug' } } });
    expect(await call('PUT', '/admin/groups/coding/models', { name: 'gpt-5', targets: 'openai/gpt-5' })).toMatchObject({ status: 200, body: { replaced: false } });
    expect(await call('PUT', '/admin/groups/coding/models', { name: 'gpt-5', targets: 'nope/x' })).toMatchObject({ status: 404, body: { error: { code: 'unknown_provider' } } });

    const shown = await call<{ baseUrls: { a: string; b: string }; models: { name: string; targets: { target: string; problem?: string }[] }[] }>('GET', '/admin/groups/coding');
    expect(shown.status).toBe(200);
    expect(shown.body.baseUrls).toEqual({ a: 'http://127.0.0.1:4545/g/coding/protocol-a/v1', b: 'http://127.0.0.1:4545/g/coding/protocol-b' });
    expect(shown.body.models[0]!.targets.map((t) => t.problem ?? 'ok')).toEqual(['ok', 'not connected']);

    expect(await call('DELETE', `/admin/groups/coding/models?name=${encodeURIComponent('a/b.c')}`)).toMatchObject({ status: 200, body: { models: [{ name: 'gpt-5' }] } });
    expect(await call('DELETE', '/admin/groups/coding/models?name=zzz')).toMatchObject({ status: 404, body: { error: { code: 'model_not_found' } } });
    expect(await call('GET', '/admin/groups')).toMatchObject({ body: { groups: [{ slug: 'coding', models: [{ name: 'gpt-5' }] }] } });
    expect(await call('DELETE', '/admin/groups/coding')).toMatchObject({ status: 200, body: { slug: 'coding' } });
    expect(await call('GET', '/admin/groups/coding')).toMatchObject({ status: 404, body: { error: { code: 'group_not_found' } } });
  });

  it('needs the admin token', async () => {
    const res = await app.request('/admin/groups');
    expect(res.status).toBe(401);
  });
});

describe('/admin/logs and /admin/stats', () => {
  it('filters, limits, and rejects bad filters with 400', async () => {
    const t0 = Date.now() - 60_000;
    const entries = [
      makeEntry({ time: new Date(t0).toISOString(), status: 200, keyName: 'ci', latencyMs: 100 }),
      makeEntry({ time: new Date(t0 + 1000).toISOString(), status: 500, provider: 'anthropic', model: 'claude', latencyMs: 300 }),
      makeEntry({ time: new Date(t0 + 2000).toISOString(), status: 429, latencyMs: 200 }),
    ];
    for (const e of entries) log.record(e);
    await log.flush();

    const all = await call<{ entries: RequestLogEntry[] }>('GET', '/admin/logs');
    expect(all.body.entries.map((e) => e.id)).toEqual(entries.map((e) => e.id).reverse());
    expect((await call<{ entries: RequestLogEntry[] }>('GET', '/admin/logs?status=5xx')).body.entries.map((e) => e.id)).toEqual([entries[1]!.id]);
    expect((await call<{ entries: RequestLogEntry[] }>('GET', '/admin/logs?key=ci')).body.entries).toHaveLength(1);
    expect((await call<{ entries: RequestLogEntry[] }>('GET', '/admin/logs?limit=1')).body.entries).toHaveLength(1);
    expect((await call<{ entries: RequestLogEntry[] }>('GET', `/admin/logs?since=${new Date(t0 + 500).toISOString()}`)).body.entries).toHaveLength(2);
    expect(await call('GET', '/admin/logs?status=7xx')).toMatchObject({ status: 400, body: { error: { code: 'invalid_filter' } } });
    expect(await call('GET', '/admin/logs?since=later')).toMatchObject({ status: 400, body: { error: { code: 'invalid_since' } } });

    const stats = await call<StatsReport>('GET', '/admin/stats?by=provider&since=1h');
    expect(stats.status).toBe(200);
    expect(stats.body.total).toMatchObject({ requests: 3, errors: 2, p50LatencyMs: 200, p95LatencyMs: 300 });
    expect(stats.body.rows.map((r) => [r.name, r.requests])).toEqual([
      ['openai', 2],
      ['anthropic', 1],
    ]);
    expect(await call('GET', '/admin/stats?by=day')).toMatchObject({ status: 400, body: { error: { code: 'invalid_filter' } } });

    expect(await call('GET', '/admin/logs/health')).toMatchObject({ status: 200, body: { ok: true, recorded: 3 } });
  });

  it('streams the live feed as SSE', async () => {
    const res = await app.request('/admin/logs/stream?recent=1', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const live = makeEntry({ modelAsked: 'live-one' });
    log.record(live);
    let text = '';
    while (!text.includes('live-one')) text += Buffer.from((await reader.read()).value!).toString();
    expect(text).toMatch(/^: svc-proxy request log\n\n/);
    expect(text.match(/^data: /gm)).toHaveLength(2); // one backlog entry, one live
    await reader.cancel();
    expect(await call('GET', '/admin/logs/stream?recent=x')).toMatchObject({ status: 400 });
  });
});
