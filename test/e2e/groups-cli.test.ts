/**
 * `svc-proxy group …`, `logs` and `stats` through the real binary: offline (config.json and the
 * log files edited/read directly) and against a running daemon (admin API, live SSE feed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VERSION, type Config } from '../../src/config/schema.js';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { rotatedName } from '../../src/log/paths.js';
import type { StatsReport } from '../../src/log/stats.js';
import { parseEntries, sleep, startDaemon, stopDaemon, TestDaemon } from '../fixtures/daemon.js';
import { freePort } from '../fixtures/ports.js';

const BIN = resolve(fileURLToPath(new URL('../../bin/svc-proxy.cjs', import.meta.url)));
const SCRUB = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY', 'GEMINI_API_KEY', 'SVC_PROXY_HOME'];

/** Only anthropic is connected (through its environment variable); a private keychain service. */
function testEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SCRUB.includes(k)) env[k] = v;
  env.ANTHROPIC_API_KEY = 'sk-ant-groups-cli-0001';
  env.SVC_PROXY_KEYCHAIN_SERVICE = `svc-proxy-test-${process.pid}-${Date.now()}`;
  env.NO_COLOR = '1';
  return env;
}

const T0 = Date.parse('2026-01-10T10:00:00.000Z');
function seedEntry(i: number, over: Partial<RequestLogEntry> = {}, t0 = T0): RequestLogEntry {
  return {
    id: `seed-${i}`,
    time: new Date(t0 + i * 1000).toISOString(),
    keyId: 'k1',
    keyName: i % 2 ? 'ci' : 'laptop',
    base: 'provider',
    endpoint: 'chat',
    dialect: 'chat',
    modelAsked: 'openai/gpt-5',
    attempts: [{ target: 'openai/gpt-5', status: 200, latencyMs: 100 * (i + 1) }],
    provider: 'openai',
    model: 'gpt-5',
    status: 200,
    latencyMs: 100 * (i + 1),
    streamed: false,
    fallback: false,
    usage: { input: 10, output: 2 },
    ...over,
  };
}

/**
 * Older entries in a rotated file, newer ones in the current file, as the daemon writes them.
 * A daemon prunes rotated files past retention (14 days) at start: seed it with recent times.
 */
async function seedLogs(home: string, t0 = T0): Promise<RequestLogEntry[]> {
  const entries = [
    seedEntry(0, {}, t0),
    seedEntry(1, { status: 500, errorCode: 'upstream_error', provider: undefined, model: undefined, attempts: [{ target: 'anthropic/claude-sonnet-4-5', status: 500, latencyMs: 50 }] }, t0),
    seedEntry(2, { base: 'group:coding', modelAsked: 'claude-sonnet-4-5', streamed: true, ttfbMs: 40, fallback: true, provider: 'anthropic', model: 'claude-sonnet-4-5' }, t0),
    seedEntry(3, { status: 429 }, t0),
  ];
  const dir = join(home, 'logs');
  await mkdir(dir, { recursive: true });
  const jsonl = (xs: RequestLogEntry[]) => xs.map((e) => JSON.stringify(e)).join('\n') + '\n';
  await writeFile(join(dir, rotatedName(new Date(t0 + 1500))), jsonl(entries.slice(0, 2)));
  await writeFile(join(dir, 'requests.jsonl'), jsonl(entries.slice(2)));
  return entries;
}

describe('without a daemon', () => {
  let home: string;
  let d: TestDaemon;
  let seeded: RequestLogEntry[];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'svc-groups-cli-'));
    await writeFile(join(home, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { port: 4999 } }));
    d = new TestDaemon(home, testEnv());
    seeded = await seedLogs(home);
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('group add → show: names and targets in order, both base URLs, not-connected targets flagged', async () => {
    const add = await d.cli([
      'group',
      'add',
      'coding',
      '--model',
      'claude-sonnet-4-5=anthropic/claude-sonnet-4-5,openrouter/anthropic/claude-sonnet-4.5',
      '--model',
      'gpt-5.4/fast=openai/gpt-5.4',
    ]);
    expect(add.stdout).toContain('http://127.0.0.1:4999/g/coding/protocol-a/v1');
    expect(add.stdout).toContain('http://127.0.0.1:4999/g/coding/protocol-b');
    const lines = add.stdout.split('\n');
    expect(lines.find((l) => l.includes('1. anthropic/claude-sonnet-4-5'))).not.toContain('!');
    expect(lines.find((l) => l.includes('2. openrouter/anthropic/claude-sonnet-4.5'))).toContain('! not connected');
    expect(lines.find((l) => l.includes('gpt-5.4/fast'))).toContain('! not connected');
    expect(add.stdout).toContain('svc-proxy provider connect openrouter');

    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as Config;
    expect(config.groups.coding!.models).toEqual([
      { name: 'claude-sonnet-4-5', targets: ['anthropic/claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5'] },
      { name: 'gpt-5.4/fast', targets: ['openai/gpt-5.4'] },
    ]);

    const show = JSON.parse((await d.cli(['group', 'show', 'coding', '--json'])).stdout) as {
      baseUrls: { a: string; b: string };
      models: { name: string; targets: { target: string; connected: boolean; problem?: string }[] }[];
    };
    expect(show.baseUrls).toEqual({ a: 'http://127.0.0.1:4999/g/coding/protocol-a/v1', b: 'http://127.0.0.1:4999/g/coding/protocol-b' });
    expect(show.models[0]!.targets.map((t) => [t.target, t.connected, t.problem ?? null])).toEqual([
      ['anthropic/claude-sonnet-4-5', true, null],
      ['openrouter/anthropic/claude-sonnet-4.5', false, 'not connected'],
    ]);
  });

  it('group set / unset / list / remove, with --json', async () => {
    const set = JSON.parse((await d.cli(['group', 'set', 'coding', 'claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5, anthropic/claude-sonnet-4-5', '--json'])).stdout) as {
      replaced: boolean;
      models: { name: string; targets: string[] }[];
    };
    expect(set.replaced).toBe(true);
    expect(set.models[0]).toEqual({ name: 'claude-sonnet-4-5', targets: ['openrouter/anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'] });
    await d.cli(['group', 'set', 'coding', 'name=with=equals', 'anthropic/claude-haiku-4-5']);
    await d.cli(['group', 'add', 'empty']);

    const list = JSON.parse((await d.cli(['group', 'list', '--json'])).stdout) as { slug: string; models: { name: string }[] }[];
    expect(list.map((g) => [g.slug, g.models.map((m) => m.name)])).toEqual([
      ['coding', ['claude-sonnet-4-5', 'gpt-5.4/fast', 'name=with=equals']],
      ['empty', []],
    ]);
    const table = (await d.cli(['group', 'list'])).stdout;
    expect(table).toMatch(/^GROUP\s+NAME\s+TARGETS/);
    expect(table).toContain('(no names yet)');

    await d.cli(['group', 'unset', 'coding', 'gpt-5.4/fast']);
    expect((await d.cli(['group', 'show', 'coding'])).stdout).not.toContain('gpt-5.4/fast');
    expect((await d.cli(['group', 'remove', 'empty'])).stdout).toContain('Group empty removed.');
    expect(JSON.parse((await d.cli(['group', 'list', '--json'])).stdout)).toHaveLength(1);
  });

  it('refuses bad input with clear messages and exit codes (2 = usage, 1 = not found/conflict)', async () => {
    const cases: [string[], number, RegExp][] = [
      [['group', 'add', 'Bad Slug'], 2, /Group name "Bad Slug"/],
      [['group', 'add', 'x', '--model', 'gpt-5'], 2, /must be <name>=<provider\/model>/],
      // refused for what is configured now: an endpoint named nobody would make it good
      [['group', 'add', 'x', '--model', 'gpt-5=nobody/gpt-5'], 1, /unknown provider "nobody". Known: anthropic, openai, openrouter, gemini/],
      [['group', 'add', 'x', '--model', 'gpt-5=gpt-5'], 2, /must be written provider\/model/],
      // a provider part nothing could ever be named (not a slug) is a malformed value: usage
      [['group', 'add', 'x', '--model', 'gpt-5=Foo/gpt-5'], 2, /"Foo" cannot be a provider name/],
      [['group', 'set', 'coding', 'a', 'Foo/x'], 2, /"Foo" cannot be a provider name/],
      [['group', 'add', 'coding'], 1, /already exists/],
      [['group', 'set', 'nope', 'a', 'openai/gpt-5'], 1, /No group named "nope"/],
      [['group', 'unset', 'coding', 'never'], 1, /has no model named "never"/],
      [['group', 'show', 'nope'], 1, /No group named "nope"/],
      [['group', 'remove', 'nope'], 1, /No group named "nope"/],
    ];
    for (const [args, code, message] of cases) {
      const res = await d.cli(args, { allowFail: true });
      expect([args.join(' '), res.code]).toEqual([args.join(' '), code]);
      expect(res.stderr).toMatch(message);
    }
    // nothing of that reached the file
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as Config;
    expect(Object.keys(config.groups)).toEqual(['coding']);
  });

  it('logs reads the files: oldest first, across rotated files, with filters', async () => {
    const all = parseEntries((await d.cli(['logs', '--json'])).stdout);
    expect(all.map((e) => e.id)).toEqual(seeded.map((e) => e.id));
    // JSON lines, oldest first
    const raw = (await d.cli(['logs', '--json', '--limit', '2'])).stdout.trim().split('\n');
    expect(raw.map((l) => (JSON.parse(l) as RequestLogEntry).id)).toEqual(['seed-2', 'seed-3']);

    const ids = async (...args: string[]) => parseEntries((await d.cli(['logs', '--json', ...args])).stdout).map((e) => e.id);
    expect(await ids('--status', '5xx')).toEqual(['seed-1']);
    expect(await ids('--status', '4xx,5xx')).toEqual(['seed-1', 'seed-3']);
    expect(await ids('--key', 'ci')).toEqual(['seed-1', 'seed-3']);
    expect(await ids('--provider', 'anthropic')).toEqual(['seed-1', 'seed-2']);
    expect(await ids('--group', 'coding')).toEqual(['seed-2']);
    expect(await ids('--since', new Date(T0 + 2000).toISOString())).toEqual(['seed-2', 'seed-3']);

    const bad = await d.cli(['logs', '--since', 'yesterday'], { allowFail: true });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid time "yesterday"');
  });

  it('logs prints an aligned table with status, latency, ttfb, tokens and stream/fallback markers', async () => {
    const out = (await d.cli(['logs'])).stdout.trimEnd().split('\n');
    expect(out[0]).toMatch(/^TIME\s+KEY\s+BASE\s+API\s+MODEL\s+ANSWERED BY\s+STATUS\s+LATENCY\s+TTFB\s+TOKENS\s+FLAGS\s+ERROR$/);
    expect(out).toHaveLength(5);
    const col = (title: string) => out[0]!.indexOf(title);
    const streamed = out.find((l) => l.includes('g/coding'))!;
    expect(streamed).toContain('anthropic/claude-sonnet-4-5');
    expect(streamed).toContain('40ms');
    expect(streamed).toContain('10/2');
    expect(streamed.slice(col('FLAGS'))).toMatch(/^S F1/);
    const failed = out.find((l) => l.includes('upstream_error'))!;
    expect(failed.slice(col('STATUS'), col('LATENCY')).trim()).toBe('500');
    expect(failed.slice(col('ANSWERED BY'), col('STATUS')).trim()).toBe('-');
    // one column start for every row
    for (const line of out.slice(1)) expect(line.slice(col('API'), col('API') + 4)).toBe('chat');
  });

  it('stats summarises the files by provider, model or key', async () => {
    const byProvider = JSON.parse((await d.cli(['stats', '--json', '--since', 'all'])).stdout) as StatsReport;
    expect(byProvider.total).toMatchObject({ requests: 4, errors: 2, inputTokens: 40, outputTokens: 8, fallbacks: 1, p50LatencyMs: 200, p95LatencyMs: 400 });
    // equal counts: by name
    expect(byProvider.rows.map((r) => [r.name, r.requests, r.errors])).toEqual([
      ['anthropic', 2, 1],
      ['openai', 2, 1],
    ]);
    const byKey = JSON.parse((await d.cli(['stats', '--json', '--since', '2026-01-01', '--by', 'key'])).stdout) as StatsReport;
    expect(byKey.rows.map((r) => [r.name, r.requests])).toEqual([
      ['ci', 2],
      ['laptop', 2],
    ]);
    const table = (await d.cli(['stats', '--since', 'all', '--by', 'model'])).stdout;
    expect(table).toMatch(/MODEL\s+REQUESTS\s+ERRORS\s+ERR%/);
    expect(table).toMatch(/TOTAL\s+4\s+2\s+50%/);
    // the default window is the last day: these January entries are older
    expect((await d.cli(['stats'])).stdout).toMatch(/^No requests since /);
    expect((await d.cli(['stats', '--by', 'day'], { allowFail: true })).code).toBe(2);
  });

  it('logs --follow needs the daemon', async () => {
    const res = await d.cli(['logs', '--follow'], { allowFail: true });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('The daemon is not running');
  });
});

const OLD_FILE = rotatedName(new Date(Date.now() - 20 * 86_400_000));

describe('with a running daemon', () => {
  let d: TestDaemon;
  const followers: ChildProcess[] = [];

  beforeAll(async () => {
    const env = testEnv();
    d = await startDaemon({
      env: { ANTHROPIC_API_KEY: env.ANTHROPIC_API_KEY!, SVC_PROXY_KEYCHAIN_SERVICE: env.SVC_PROXY_KEYCHAIN_SERVICE!, NO_COLOR: '1' },
      setup: async (t) => {
        await seedLogs(t.home, Date.now() - 3_600_000);
        await writeFile(join(t.home, 'logs', OLD_FILE), `${JSON.stringify(seedEntry(9, {}, Date.now() - 20 * 86_400_000))}\n`);
        await t.cli(['group', 'add', 'coding', '--model', 'claude=anthropic/claude-sonnet-4-5']);
      },
    });
  }, 60_000);
  afterAll(async () => {
    for (const f of followers) f.kill('SIGKILL');
    await stopDaemon(d);
  });

  /** One proxy request through the group base; answered without any upstream (unknown name). */
  function unknownModelRequest(name: string): Promise<number> {
    return new Promise((resolvePromise, reject) => {
      const body = JSON.stringify({ model: name, messages: [{ role: 'user', content: 'hi' }] });
      const req = request(
        `${d.baseA('coding')}/chat/completions`,
        { method: 'POST', headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolvePromise(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  function follow(args: string[]): { child: ChildProcess; lines: string[]; stderr: () => string; exited: Promise<number | null> } {
    const child = spawn(process.execPath, [BIN, 'logs', '--follow', ...args], { env: { ...testEnv(), SVC_PROXY_HOME: d.home }, stdio: ['ignore', 'pipe', 'pipe'] });
    followers.push(child);
    const lines: string[] = [];
    let buf = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => {
      buf += c.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      lines.push(...parts);
    });
    child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    return { child, lines, stderr: () => err, exited };
  }

  async function waitFor(cond: () => boolean, what: string, ms = 8_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(25);
    }
  }

  it('group commands go through the admin API: show uses the daemon port, changes apply at once', async () => {
    const show = JSON.parse((await d.cli(['group', 'show', 'coding', '--json'])).stdout) as { baseUrls: { a: string; b: string } };
    expect(show.baseUrls.a).toBe(d.baseA('coding'));
    expect(show.baseUrls.b).toBe(d.baseB('coding'));
    await d.cli(['group', 'set', 'coding', 'gpt', 'openai/gpt-5']);
    const config = JSON.parse(await readFile(join(d.home, 'config.json'), 'utf8')) as Config;
    expect(config.groups.coding!.models.map((m) => m.name)).toEqual(['claude', 'gpt']);
    const bad = await d.cli(['group', 'set', 'coding', 'x', 'nobody/y'], { allowFail: true });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown provider "nobody"');
    // through the daemon as offline: a provider part that could never be a slug exits 2 with its code
    const malformed = await d.cli(['group', 'set', 'coding', 'x', 'Foo/y', '--json'], { allowFail: true });
    expect(malformed.code).toBe(2);
    expect(JSON.parse(malformed.stdout).error).toMatchObject({ code: 'invalid_target', message: expect.stringContaining('"Foo" cannot be a provider name') });
  });

  it('provider disconnect names the groups still routing to the provider, after it and in --json', async () => {
    await d.cli(['group', 'add', 'disc', '--model', 'fast=openrouter/openai/gpt-5-mini,anthropic/claude-haiku-4-5']);
    await d.cli(['provider', 'connect', 'openrouter', '--insecure-storage'], { input: 'sk-or-disc-e2e-1357\n' });
    const json = await d.cli(['provider', 'disconnect', 'openrouter', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ name: 'openrouter', stillUsedBy: [{ group: 'disc', name: 'fast', targets: ['openrouter/openai/gpt-5-mini'] }] });
    expect(json.stderr).toContain('svc-proxy: warning: openrouter is disconnected, but model group disc still routes fast to openrouter/openai/gpt-5-mini; those targets now fail.');
    expect(json.stderr).not.toContain('coding'); // it routes only to anthropic and openai

    await d.cli(['provider', 'connect', 'openrouter', '--insecure-storage'], { input: 'sk-or-disc-e2e-2468\n' });
    const text = await d.cli(['provider', 'disconnect', 'openrouter']);
    expect(text.stdout).toMatch(/^openrouter disconnected \(removed from /);
    expect(text.stderr).toMatch(/warning: openrouter is disconnected, but model group disc still routes fast to openrouter\/openai\/gpt-5-mini/);

    // anthropic stays connected through the daemon's environment: its groups keep working, no warning
    await d.cli(['provider', 'connect', 'anthropic', '--insecure-storage'], { input: 'sk-ant-disc-e2e-1357\n' });
    const env = await d.cli(['provider', 'disconnect', 'anthropic']);
    expect(env.stdout).toMatch(/^anthropic disconnected \(removed from /);
    expect(env.stderr).toContain('note: still connected through ANTHROPIC_API_KEY');
    expect(env.stderr).not.toContain('warning: anthropic');
    // with nothing stored, disconnect removes nothing: it says so, exit 1
    const again = await d.cli(['provider', 'disconnect', 'anthropic'], { allowFail: true });
    expect(again.code).toBe(1);
    // (where the keychain cannot be checked that is said too, after the variable, not instead of it)
    expect(again.stderr).toMatch(/^svc-proxy: (anthropic has no stored key to remove; it|Nothing removed: anthropic) is connected through ANTHROPIC_API_KEY in the daemon's environment, which svc-proxy does not change \(unset it where the daemon is started\)(\.\n$|; no key for anthropic in the 0600 file, and the OS keychain could not be checked)/);
    await d.cli(['group', 'remove', 'disc']);
  });

  it('logs shows live entries from the daemon and older ones from the files', async () => {
    expect(await unknownModelRequest('not-in-group')).toBe(404);
    const entries = await d.logs((l) => l.some((e) => e.modelAsked === 'not-in-group'));
    const live = entries.find((e) => e.modelAsked === 'not-in-group')!;
    expect(live).toMatchObject({ base: 'group:coding', status: 404, keyName: 'e2e', endpoint: 'chat' });
    expect(entries.filter((e) => e.id.startsWith('seed-'))).toHaveLength(4);
    // the daemon pruned the rotated file past the 14-day retention when it started
    expect(existsSync(join(d.home, 'logs', OLD_FILE))).toBe(false);
    expect(JSON.stringify(entries)).not.toContain(d.key);

    const stats = JSON.parse((await d.cli(['stats', '--json', '--by', 'key'])).stdout) as StatsReport;
    expect(stats.rows.find((r) => r.name === 'e2e')).toMatchObject({ requests: 1, errors: 1 });
    expect(stats.total.requests).toBe(5); // the seeded hour-old entries are inside the default day
  });

  it('logs --follow prints new requests as they happen and ends cleanly on Ctrl-C', async () => {
    const f = follow(['--json', '--limit', '1']);
    // the backlog line shows the feed is connected
    await waitFor(() => f.lines.length >= 1, 'the backlog entry');
    expect(await unknownModelRequest('followed-live')).toBe(404);
    await waitFor(() => f.lines.some((l) => l.includes('followed-live')), 'the live entry');
    const entry = JSON.parse(f.lines.find((l) => l.includes('followed-live'))!) as RequestLogEntry;
    expect(entry).toMatchObject({ modelAsked: 'followed-live', status: 404, base: 'group:coding' });
    f.child.kill('SIGINT');
    expect(await f.exited).toBe(0);
    expect(f.stderr()).toBe('');
  });

  it('a table follower ends by itself when the daemon stops', async () => {
    const f = follow(['--status', '4xx']);
    await waitFor(() => f.lines.some((l) => l.startsWith('TIME')), 'the header');
    await waitFor(() => f.lines.some((l) => /\b429\b/.test(l)), 'the backlog rows (from the files)');
    expect(f.lines.filter((l) => /\b(200|500)\b/.test(l))).toEqual([]); // the filter holds
    const started = Date.now();
    await d.stop();
    expect(await f.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000); // the feed did not hold the drain up
    expect(f.stderr()).toContain('The daemon stopped');
  });
});

describe('start --log-bodies', () => {
  it('logs request bodies for that run, with keys and images redacted', async () => {
    const home = await mkdtemp(join(tmpdir(), 'svc-log-bodies-'));
    const d = new TestDaemon(home, testEnv());
    const env = { ...testEnv(), SVC_PROXY_HOME: home };
    let child: ChildProcess | undefined;
    try {
      await d.cli(['group', 'add', 'g1', '--model', 'claude=anthropic/claude-sonnet-4-5']);
      const key = (JSON.parse((await d.cli(['key', 'create', '--name', 'bodies', '--json'])).stdout) as { key: string }).key;
      const port = await freePort();
      child = spawn(process.execPath, [BIN, 'start', '--foreground', '--port', String(port), '--log-bodies'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const deadline = Date.now() + 15_000;
      while (!output.includes('running in the foreground')) {
        if (Date.now() > deadline) throw new Error(`daemon did not start:\n${output}`);
        await sleep(50);
      }
      expect(output).toContain('bodies are being logged');

      const png = 'iVBORw0KGgo'.repeat(20);
      const secret = 'sk-ant-api03-ThisIsNotARealKeyButLooksLikeOne0123';
      const body = JSON.stringify({
        model: 'not-in-group',
        messages: [{ role: 'user', content: [{ type: 'text', text: `my key is ${secret}` }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }],
      });
      const status = await new Promise<number>((ok, fail) => {
        const req = request(
          `http://127.0.0.1:${port}/g/g1/protocol-a/v1/chat/completions`,
          { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            res.on('end', () => ok(res.statusCode ?? 0));
          },
        );
        req.on('error', fail);
        req.end(body);
      });
      expect(status).toBe(404);

      const entries = await d.logs((l) => l.some((e) => e.modelAsked === 'not-in-group'));
      const entry = entries.find((e) => e.modelAsked === 'not-in-group')!;
      const logged = JSON.stringify(entry.requestBody);
      expect(logged).toContain('my key is');
      expect(logged).not.toContain(secret.slice(8));
      expect(logged).not.toContain(png);
      expect(logged).toMatch(/data URL|base64/); // the image is noted, its bytes are not kept
      expect(JSON.stringify(entry)).not.toContain(key);
      // and on disk
      const text = await readFile(join(home, 'logs', 'requests.jsonl'), 'utf8');
      expect(text).toContain('my key is');
      expect(text).not.toContain(secret.slice(8));
      expect(text).not.toContain(key);
    } finally {
      if (child && child.exitCode === null) {
        const gone = new Promise((r) => child!.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(home, { recursive: true, force: true });
    }
  });
});
