/**
 * A provider credential reaches its upstream and nothing else: not the admin API, not the CLI's
 * outputs (text and --json), not daemon.log, not the request log (bodies logged too), not the
 * proxy's own answers. One of each kind is stored — a connected key, one from the environment, an
 * endpoint's key in a header of its own, fixed headers a hand-edited config.json holds, a base URL's
 * user and password, a query parameter — and each surface is searched for each (and its base64 and
 * URL-encoded forms). The TUI's screens are checked in test/tui/providers-screen.test.tsx.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { ConfigStore } from '../../src/config/store.js';
import { createProxyHandler } from '../../src/routing/proxy-handler.js';
import { leakedForms } from '../fixtures/credential-forms.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { http, removeTempDirs, runCli, tempStateDir } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';

const SECRETS = {
  storedKey: 'sk-ant-api03-CanaryStoredKey0001abcdWXYZ',
  envKey: 'sk-proj-CanaryEnvKey0002abcdefghWXYZ',
  endpointKey: 'CanaryEndpointKey0003',
  fixedToken: 'CanaryFixedToken0004',
  fixedGoog: 'AIzaSyCanaryFixedGoogKey0123456789abcde',
  urlUserinfo: 'canaryuser:CanaryUrlPass0005',
  urlPassword: 'CanaryUrlPass0005',
  queryKey: 'CanaryQueryKey0006',
} as const;

// nothing listens on the discard port: the calls there fail, and their failures are surfaces too
const DEAD = 'http://127.0.0.1:9';

let d: InProcessDaemon;
let mock: GenericChatMock;
let serviceKey: string;

beforeAll(async () => {
  mock = await new GenericChatMock({ name: 'gw' }).listen();
  const dir = await tempStateDir();
  const created = '2026-01-02T03:04:05.000Z';
  await writeFile(
    statePaths(dir).config,
    JSON.stringify({
      version: CONFIG_VERSION,
      settings: { logBodies: true },
      providers: {
        anthropic: { baseUrl: DEAD },
        openai: { baseUrl: `http://${SECRETS.urlUserinfo}@127.0.0.1:9/v1` },
        gemini: { baseUrl: `${DEAD}/v1beta/openai`, headers: { 'x-goog-api-key': SECRETS.fixedGoog, 'x-team': 'ml' } },
      },
      locals: { box: { url: `${DEAD}/v1?api_key=${SECRETS.queryKey}`, created, detected: false } },
    }),
  );
  d = await startInProcess({ stateDir: dir, createProxyHandler, env: { OPENAI_API_KEY: SECRETS.envKey, GEMINI_API_KEY: 'AIzaSyGeminiEnvKeyNotUnderTest0123456789' } });
  expect((await d.admin('PUT', '/admin/providers/anthropic/credential', { credential: SECRETS.storedKey, insecureStorage: true })).status).toBe(200);
  expect((await d.admin('POST', '/admin/endpoints', { slug: 'gw', url: mock.baseUrl, format: 'a', credential: SECRETS.endpointKey, insecureStorage: true, authHeader: 'x-gw-auth' })).status).toBe(201);
  // by hand: a credential in a fixed header, which no command would take
  const store = await ConfigStore.open(statePaths(dir));
  await store.update((c) => {
    c.endpoints.gw = { ...c.endpoints.gw!, headers: { 'x-gateway-token': SECRETS.fixedToken, 'x-team': 'ml' } };
  });
  expect((await d.admin('POST', '/admin/config/reload')).status).toBe(200);
  serviceKey = ((await d.admin('POST', '/admin/keys', { name: 'leaks' })).json() as { key: string }).key;
});

afterAll(async () => {
  await d.admin('DELETE', '/admin/providers/anthropic/credential');
  await d.admin('DELETE', '/admin/endpoints/gw');
  await d.daemon.stop();
  await mock.close();
  await removeTempDirs();
});

const chat = (model: string) =>
  http('POST', `${d.origin}/protocol-a/v1/chat/completions`, {
    headers: { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello' }] }),
  });

describe('provider credentials reach the upstream and nothing else', () => {
  const seen: Record<string, string> = {};

  it('the upstream gets them, a hand-edited fixed header too; the proxy answers hold none', async () => {
    const ok = await chat('gw/model-1');
    expect(ok.status).toBe(200);
    const sent = mock.lastGeneration().headers;
    expect(sent['x-gw-auth']).toBe(SECRETS.endpointKey);
    expect(sent['x-gateway-token']).toBe(SECRETS.fixedToken);
    for (const model of ['openai/gpt-4o', 'gemini/gemini-2.5-flash', 'anthropic/claude-sonnet-4-5', 'box/llama']) {
      const failed = await chat(model);
      expect(failed.status).toBeGreaterThanOrEqual(400);
      seen[`proxy ${model}`] = JSON.stringify(failed.headers) + failed.text;
    }
    seen['proxy gw'] = JSON.stringify(ok.headers) + ok.text;
    for (const [surface, text] of Object.entries(seen)) expect(leakedForms(text, SECRETS), surface).toEqual([]);
  });

  it('the admin API: listings, status, logs, stats, models, and the answers of its changes', async () => {
    const answers: Record<string, string> = {};
    for (const path of ['/admin/providers', '/admin/endpoints', '/admin/locals', '/admin/status', '/admin/logs', '/admin/stats', '/admin/models', '/admin/logs/health']) {
      answers[path] = (await d.admin('GET', path)).text;
    }
    const providers = JSON.parse(answers['/admin/providers']!) as { providers: Array<{ name: string; headers?: Record<string, string>; baseUrl: string }> };
    expect(providers.providers.find((p) => p.name === 'gemini')!.headers).toEqual({ 'x-goog-api-key': '***', 'x-team': 'ml' });
    expect(providers.providers.find((p) => p.name === 'openai')!.baseUrl).toBe('http://***@127.0.0.1:9/v1');
    expect(JSON.parse(answers['/admin/endpoints']!)).toMatchObject({ endpoints: [{ slug: 'gw', authHeader: 'x-gw-auth', headers: { 'x-gateway-token': '***', 'x-team': 'ml' } }] });
    expect(JSON.parse(answers['/admin/locals']!)).toMatchObject({ locals: [{ slug: 'box', url: `${DEAD}/v1?api_key=***` }] });
    const kept = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': { keep: true }, 'x-team': 'ml' } });
    expect(kept.json()).toEqual({ name: 'gemini', headers: { 'x-goog-api-key': '***', 'x-team': 'ml' } });
    answers['PUT headers'] = kept.text;
    for (const [surface, text] of Object.entries(answers)) expect(leakedForms(text, SECRETS), surface).toEqual([]);
  });

  it('the CLI: every listing, status, doctor, logs and stats, as text and as --json, and config check', async () => {
    const env = { SVC_PROXY_HOME: d.dir, SVC_PROXY_KEYCHAIN_SERVICE: process.env.SVC_PROXY_KEYCHAIN_SERVICE, NO_COLOR: '1' };
    const commands = [
      ['provider', 'list'],
      ['endpoint', 'list'],
      ['local', 'list'],
      ['status'],
      ['doctor'],
      ['logs'],
      ['stats'],
    ];
    const outputs: Record<string, string> = {};
    for (const args of commands) {
      for (const form of [args, [...args, '--json']]) {
        const run = await runCli(form, { env });
        outputs[form.join(' ')] = run.stdout + run.stderr;
      }
    }
    // it names what a hand edit put where, never the value
    const check = await runCli(['config', 'check'], { env });
    expect(check.stdout).toContain('providers.gemini.headers.x-goog-api-key');
    outputs['config check'] = check.stdout + check.stderr;
    expect(outputs['provider list --json']).toContain('"x-goog-api-key": "***"');
    for (const [surface, text] of Object.entries(outputs)) expect(leakedForms(text, SECRETS), surface).toEqual([]);
  });

  it('daemon.log and the request log files', async () => {
    const paths = statePaths(d.dir);
    // config.json and the credentials file are where credentials are kept, not surfaces
    const kept = new Set([paths.config, paths.configBackup, paths.credentialsFile]);
    const files: Record<string, string> = { 'daemon log lines': d.logLines.join('\n') };
    for (const entry of await readdir(d.dir, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name);
      if (entry.isFile() && !kept.has(file)) files[file] = await readFile(file, 'utf8');
    }
    // the request log, bodies in it, holds the calls made above
    expect(Object.entries(files).some(([f, text]) => f.endsWith('.jsonl') && text.includes('gw/model-1'))).toBe(true);
    for (const [surface, text] of Object.entries(files)) expect(leakedForms(text, SECRETS), surface).toEqual([]);
  });
});
