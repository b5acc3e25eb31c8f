/**
 * The non-proxy listener answers /health itself and loads the admin API (hono) only on the first
 * other request, once, however many arrive together. The module factory below counts loads.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/server/admin/index.js', async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const { lazyAdminListener } = await import('../../../src/server/admin/lazy-listener.js');
type AdminContext = import('../../../src/server/admin/context.js').AdminContext;

let server: Server;
let origin: string;

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  server = createServer(lazyAdminListener({} as AdminContext, { adminToken: 'token-for-the-test', version: '9.8.7', report: () => undefined }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('lazy admin listener', () => {
  it('answers GET and HEAD /health (query ignored) without loading the admin API', async () => {
    const get = await send('GET', '/health');
    expect(get).toEqual({ status: 200, type: 'application/json', body: JSON.stringify({ status: 'ok', version: '9.8.7' }) });
    expect((await send('GET', '/health?probe=1')).status).toBe(200);
    const head = await send('HEAD', '/health');
    expect([head.status, head.body]).toEqual([200, '']);
    expect(loads.count).toBe(0);
  });

  it('loads the admin API once for concurrent first requests, which it then answers', async () => {
    const answers = await Promise.all([send('GET', '/admin/status'), send('GET', '/admin/keys'), send('POST', '/health'), send('GET', '/nowhere')]);
    expect(loads.count).toBe(1);
    expect(answers.map((a) => a.status)).toEqual([401, 401, 404, 404]);
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: { code: 'missing_admin_token' } });
    expect(JSON.parse(answers[3]!.body)).toMatchObject({ error: { code: 'not_found' } });
    await send('GET', '/admin/status');
    expect(loads.count).toBe(1);
  });
});
