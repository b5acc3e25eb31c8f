/**
 * Test helpers for the foundation: temp state dirs, the keychain probe (skip with a reason, or
 * fail under REQUIRE_KEYCHAIN=1), the CLI in-process and as the real binary, raw HTTP calls.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';
import type { CliIo } from '../../src/cli/io.js';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const BIN = join(ROOT, 'bin', 'svc-proxy.cjs');

const tempDirs: string[] = [];

export async function tempStateDir(prefix = 'svc-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  // a write the stopped daemon had under way (a log line, an atomic rename) may still land: retry on ENOTEMPTY
  await Promise.all(tempDirs.splice(0).map((d) => rm(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 })));
}

/** A keychain service name of our own, so tests never touch real `svc-proxy` entries. */
export function testKeychainService(): string {
  return `svc-proxy-test-${randomBytes(6).toString('hex')}`;
}

/** Environment that points nothing at a working Secret Service (to test the no-keychain path). */
export const NO_KEYCHAIN_ENV = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/svc-proxy-test-bus' };

let probe: Promise<{ ok: true } | { ok: false; reason: string }> | undefined;

/** Can this machine store, read and delete a secret in the Secret Service right now? */
export function keychainAvailability(): Promise<{ ok: true } | { ok: false; reason: string }> {
  probe ??= (async () => {
    if (process.platform !== 'linux') return { ok: false as const, reason: 'keychain tests target the Linux Secret Service' };
    try {
      const { AsyncEntry } = await import('@napi-rs/keyring');
      const entry = new AsyncEntry(testKeychainService(), 'probe', { linux: { store: 'secret-service' } });
      await entry.setPassword('probe-value');
      const back = await entry.getPassword();
      await entry.deletePassword();
      if (back !== 'probe-value') return { ok: false as const, reason: 'the Secret Service did not return what was stored' };
      return { ok: true as const };
    } catch (err) {
      return { ok: false as const, reason: `no usable Secret Service (${err instanceof Error ? err.message : String(err)}); run the tests through scripts/with-keychain.sh (npm test does)` };
    }
  })();
  return probe;
}

/**
 * For keychain test files: returns true when the keychain tests should run. Prints the reason when
 * they are skipped; throws under REQUIRE_KEYCHAIN=1 instead of skipping.
 */
export async function keychainTestsEnabled(what: string): Promise<boolean> {
  const kc = await keychainAvailability();
  if (kc.ok) return true;
  if (process.env.REQUIRE_KEYCHAIN === '1') throw new Error(`REQUIRE_KEYCHAIN=1 but ${kc.reason}`);
  console.warn(`[skipped: ${what}] ${kc.reason}`);
  return false;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in this process (fast), with its own streams and environment. */
export async function runCli(args: string[], opts: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const stdin = Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]) as CliIo['stdin'];
  const io: CliIo = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin,
    env: opts.env ?? {},
  };
  const code = await main(['node', 'svc-proxy', ...args], io);
  return { code, stdout, stderr };
}

/** Run the real binary (needs `npm run build`). */
export function runBin(args: string[], opts: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: opts.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc-proxy ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** Environment for child processes: ours minus anything that would leak into the daemon. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(ANTHROPIC|OPENAI|OPENROUTER|GEMINI)_API_KEY$|^SVC_PROXY_|^https?_proxy$|^HTTPS?_PROXY$/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): unknown;
}

export function http(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer; agent?: false } = {},
): Promise<HttpResult> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
