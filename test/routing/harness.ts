/**
 * In-process harness for the routing engine: a real node:http server calling createProxyHandler
 * (real provider modules, real codecs) with the server's own route table, against the mock
 * upstreams of test/fixtures on 127.0.0.1. Config lives in memory; log records are collected.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { configSchema, CONFIG_VERSION, type Config } from '../../src/config/schema.js';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { createProxyHandler, type ProxyHandler } from '../../src/routing/proxy-handler.js';
import type { RoutingServices } from '../../src/routing/services.js';
import { matchProxyPath } from '../../src/server/route-table.js';
import { AnthropicMock, GeminiMock, GenericChatMock, OpenRouterMock, ResponsesMock } from '../fixtures/mock-upstream/index.js';

// Tails hold '_', which no UUID, base64 id or mock id contains: tests look for a key's last
// characters in logs full of random ids, and a hex tail matched one of them 1 run in ~4,000.
export const KEYS = {
  anthropic: 'sk-ant-harness-key-7f3_Qc',
  openai: 'sk-proj-harness-key-1b2_Kd',
  openrouter: 'sk-or-harness-key-4e5_Wf',
  gemini: 'AIza-harness-key-8b9_Tg',
  ca: 'ca-harness-secret-0005',
} as const;

export interface Harness {
  url: string;
  /** Base URLs as clients write them. */
  a: string;
  b: string;
  groupA(slug: string): string;
  groupB(slug: string): string;
  mocks: { anthropic: AnthropicMock; openai: ResponsesMock; openrouter: OpenRouterMock; gemini: GeminiMock; ca: GenericChatMock; cb: AnthropicMock };
  logs: RequestLogEntry[];
  config: Config;
  handler: ProxyHandler;
  /** Credentials the daemon knows (delete one to disconnect a provider). */
  credentials: Map<string, string>;
  /** Wait until `n` log records exist (streams log after their last byte). */
  waitForLogs(n: number, timeoutMs?: number): Promise<RequestLogEntry[]>;
  reset(): void;
  close(): Promise<void>;
}

export interface HarnessOptions {
  settings?: Partial<Config['settings']>;
  groups?: Record<string, Array<{ name: string; targets: string[] }>>;
  overrides?: Partial<RoutingServices>;
}

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  const mocks = {
    anthropic: await new AnthropicMock({ apiKey: KEYS.anthropic }).listen(),
    openai: await new ResponsesMock({ apiKey: KEYS.openai }).listen(),
    openrouter: await new OpenRouterMock({ apiKey: KEYS.openrouter }).listen(),
    gemini: await new GeminiMock({ apiKey: KEYS.gemini }).listen(),
    ca: await new GenericChatMock({ apiKey: KEYS.ca, name: 'ca' }).listen(),
    cb: await new AnthropicMock({ name: 'cb' }).listen(),
  };
  const created = '2026-01-02T03:04:05.000Z';
  const groups: Record<string, unknown> = {};
  for (const [slug, models] of Object.entries(opts.groups ?? {})) groups[slug] = { models, created };
  const config = configSchema.parse({
    version: CONFIG_VERSION,
    // each test scripts its own failures: one test's must not cool a target down for the next
    settings: { groupCooldowns: false, ...opts.settings },
    providers: {
      anthropic: { baseUrl: mocks.anthropic.baseUrl },
      openai: { baseUrl: mocks.openai.baseUrl },
      openrouter: { baseUrl: mocks.openrouter.baseUrl },
      gemini: { baseUrl: mocks.gemini.baseUrl },
    },
    endpoints: {
      ca: { url: mocks.ca.baseUrl, format: 'a', hasCredential: true, created },
      cb: { url: mocks.cb.baseUrl, format: 'b', hasCredential: false, created },
    },
    groups,
  });
  const credentials = new Map<string, string>(Object.entries(KEYS));
  const logs: RequestLogEntry[] = [];
  const handler = createProxyHandler(
    { config: () => config, credential: (slug) => credentials.get(slug), log: (e) => logs.push(e) },
    opts.overrides,
  );
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const m = matchProxyPath(q === -1 ? url : url.slice(0, q), req.method ?? 'GET');
    if (!m.ok) {
      res.writeHead(m.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: m.code, message: m.message } }));
      return;
    }
    handler.handle(req, res, m.route, { keyId: 'key-1', keyName: 'harness' }).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal_error', message: String(err) } }));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    a: `${url}/protocol-a/v1`,
    b: `${url}/protocol-b`,
    groupA: (slug) => `${url}/g/${slug}/protocol-a/v1`,
    groupB: (slug) => `${url}/g/${slug}/protocol-b`,
    mocks,
    logs,
    config,
    handler,
    credentials,
    async waitForLogs(n, timeoutMs = 3000) {
      const until = Date.now() + timeoutMs;
      while (logs.length < n) {
        if (Date.now() > until) throw new Error(`expected ${n} log records, have ${logs.length}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return logs;
    },
    reset() {
      for (const m of Object.values(mocks)) m.reset();
      logs.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
      await Promise.all(Object.values(mocks).map((m) => m.close()));
    },
  };
}

/** For a describe block (or a file): one harness started before its tests, its mocks reset between them, closed after. */
export function useHarness(opts: HarnessOptions = {}): { readonly h: Harness } {
  const t = {} as { h: Harness };
  beforeAll(async () => {
    t.h = await startHarness(opts);
  });
  afterAll(async () => {
    await t.h?.close();
  });
  beforeEach(() => t.h.reset());
  return t;
}

/** POST JSON with plain fetch-free node:http; returns status, headers and the body text. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire data, asserted field by field
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; json: any }> {
  const { request } = await import('node:http');
  const payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-svc-proxy-test', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
