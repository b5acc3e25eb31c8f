/**
 * Shared by the hardening tests: a lean daemon (three mocks, one per upstream dialect, instead of
 * the full world), raw HTTP and socket helpers that do not hide what the server sent, and a check
 * of the daemon's own output for crashes.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { AnthropicMock, GenericChatMock, ResponsesMock } from '../fixtures/mock-upstream/index.js';

/**
 * Provider credentials of the lean daemon, with tails no id or timestamp will contain by chance,
 * so a test can search every output byte for them (and for their last characters). `ca` is the
 * chat-format custom endpoint; its credential lives in the 0600 credentials file.
 */
export const CREDS = {
  anthropic: 'sk-ant-api03-hardening-key-Zq_Xw',
  openai: 'sk-proj-hardening-key-Vb_Tj',
  ca: 'ca-hardening-secret-Mn_Rk',
} as const;

/**
 * No OS keychain for the hardening daemons, whatever the machine has: `--insecure-storage` then
 * puts `ca`'s credential in the 0600 file (which the tests check), and nothing is shared with the
 * keyring other test files use.
 */
export const NO_KEYCHAIN = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/svc-proxy-hardening-bus' } as const;

/** One model per upstream dialect. */
export const M = {
  anthropic: 'anthropic/claude-sonnet-4-5',
  openai: 'openai/gpt-5.4',
  chat: 'ca/qwen3-coder',
} as const;

export interface Lean {
  d: TestDaemon;
  anthropic: AnthropicMock;
  openai: ResponsesMock;
  chat: GenericChatMock;
  reset(): void;
  close(): Promise<void>;
}

/**
 * A daemon wired to an Anthropic mock (Messages upstream), an OpenAI mock (Responses upstream)
 * and a custom endpoint `ca` speaking Chat Completions with a credential kept in the file store.
 */
export async function startLean(
  opts: { settings?: Record<string, unknown>; env?: Record<string, string>; setup?: (d: TestDaemon) => Promise<void> } = {},
): Promise<Lean> {
  const anthropic = await new AnthropicMock({ apiKey: CREDS.anthropic }).listen();
  const openai = await new ResponsesMock({ apiKey: CREDS.openai }).listen();
  const chat = await new GenericChatMock({ apiKey: CREDS.ca, name: 'ca', models: ['qwen3-coder'] }).listen();
  const mocks = [anthropic, openai, chat];
  let d: TestDaemon;
  try {
    d = await startDaemon({
      settings: opts.settings,
      env: { ANTHROPIC_API_KEY: CREDS.anthropic, OPENAI_API_KEY: CREDS.openai, ...NO_KEYCHAIN, ...opts.env },
      setup: async (t) => {
        await t.cli(['provider', 'set', 'anthropic', '--base-url', anthropic.baseUrl]);
        await t.cli(['provider', 'set', 'openai', '--base-url', openai.baseUrl]);
        await t.cli(['endpoint', 'add', 'ca', '--url', chat.baseUrl, '--format', 'a', '--insecure-storage'], { input: `${CREDS.ca}\n` });
        await opts.setup?.(t);
      },
    });
  } catch (err) {
    await Promise.all(mocks.map((m) => m.close()));
    throw err;
  }
  return {
    d,
    anthropic,
    openai,
    chat,
    reset: () => mocks.forEach((m) => m.reset()),
    close: async () => {
      await stopDaemon(d);
      await Promise.all(mocks.map((m) => m.close()));
    },
  };
}

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire data, asserted field by field
  json: any;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Default: the daemon's service key as a Bearer token. */
  key?: string | null;
  timeoutMs?: number;
}

/** One request to the daemon with node:http (no SDK retries or reshaping). */
export function send(d: TestDaemon, path: string, opts: SendOptions = {}): Promise<Raw> {
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
  // an explicit length: node's client sends a GET/OPTIONS body without one, which HTTP reads as a second request
  const headers: Record<string, string> = body !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {};
  const key = opts.key === undefined ? d.key : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  Object.assign(headers, opts.headers);
  return new Promise((resolve, reject) => {
    const req = request(`${d.origin}${path}`, { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers, agent: false }, (res) => {
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
    req.setTimeout(opts.timeoutMs ?? 15_000, () => req.destroy(new Error(`no answer from ${path} within ${opts.timeoutMs ?? 15_000} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Write raw bytes on a fresh socket; resolve with everything the server sent until it closed. */
export function rawExchange(port: number, bytes: string | Buffer, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1', () => sock.write(bytes));
    let text = '';
    const timer = setTimeout(() => sock.destroy(), timeoutMs);
    sock.on('data', (c: Buffer) => (text += c.toString('latin1')));
    sock.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    sock.on('error', () => undefined);
  });
}

/** The events of an SSE body: `{event?, data}` with data parsed when it is JSON. */
export function sseEvents(text: string): Array<{ event?: string; data: unknown }> {
  const out: Array<{ event?: string; data: unknown }> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    if (!block.trim()) continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length === 0) continue;
    const joined = data.join('\n');
    let parsed: unknown = joined;
    try {
      parsed = JSON.parse(joined);
    } catch {
      // [DONE] and other plain data
    }
    out.push(event === undefined ? { data: parsed } : { event, data: parsed });
  }
  return out;
}

/** The error code a body carries, in either protocol's shape. */
export function codeOf(json: unknown): string | undefined {
  const o = json as { error?: { code?: string } } | undefined;
  return o?.error?.code;
}

/** Protocol A error body: `{error:{message,type,param,code}}`. */
export function expectShapeA(r: Raw, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.json).toEqual({ error: { message: expect.any(String), type: expect.any(String), param: expect.toSatisfy((p: unknown) => p === null || typeof p === 'string'), code } });
}

/** Protocol B error body: `{type:"error",error:{type,message,code}}`. */
export function expectShapeB(r: Raw, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.json).toEqual({ type: 'error', error: { type: expect.any(String), message: expect.any(String), code } });
}

/** Lines in the daemon's own output that mean a crash or an unexpected error. */
export function crashLines(output: string): string[] {
  return output.split('\n').filter((l) => /uncaught exception|unhandled rejection|unexpected error|internal_error|TypeError|RangeError|ReferenceError/i.test(l));
}

/** The RSS of a process in bytes (Linux /proc), or undefined elsewhere. */
export async function rssOf(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+) kB/.exec(status);
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The same string with its last character changed; random keys end in any letter, so a fixed
 * replacement would sometimes give back the key itself. */
export function lastCharChanged(s: string): string {
  return s.slice(0, -1) + (s.endsWith('x') ? 'y' : 'x');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The daemon's pid, from its runtime file (there before the daemon answers anything). */
export async function pidOf(d: TestDaemon): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  return (JSON.parse(await readFile(join(d.home, 'daemon.json'), 'utf8')) as { pid: number }).pid;
}
