import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { http, keychainAvailability, removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';

let d: InProcessDaemon;
const keychainOk = (await keychainAvailability()).ok;

beforeAll(async () => {
  const dir = await tempStateDir();
  // CORS on for browser clients of the proxy: it must still never reach the admin API.
  await writeFile(statePaths(dir).config, JSON.stringify({ version: 2, settings: { corsOrigins: ['https://app.example'] } }));
  d = await startInProcess({ stateDir: dir, env: { SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), GEMINI_API_KEY: 'gemini-env-value-5555' } });
});
afterAll(async () => {
  await d.admin('DELETE', '/admin/providers/anthropic/credential');
  await d.admin('DELETE', '/admin/endpoints/vllm');
  await d.daemon.stop();
  await removeTempDirs();
});

describe('admin API: authentication', () => {
  it('needs the admin token; a service key does not open it', async () => {
    const none = await http('GET', `${d.origin}/admin/status`);
    expect(none.status).toBe(401);
    expect(none.json()).toMatchObject({ error: { code: 'missing_admin_token' } });
    const key = (await d.admin('POST', '/admin/keys', { name: 'not-admin' })).json() as { key: string };
    const withServiceKey = await http('GET', `${d.origin}/admin/status`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(withServiceKey.status).toBe(401);
    expect(withServiceKey.json()).toMatchObject({ error: { code: 'invalid_admin_token' } });
    expect((await http('GET', `${d.origin}/admin/keys`, { headers: { 'x-api-key': d.token } })).status).toBe(401);
    expect((await d.admin('GET', '/admin/status', undefined, `${d.token}x`)).status).toBe(401);
    expect((await d.admin('GET', '/admin/status')).status).toBe(200);
  });

  it('never sends CORS headers, whatever settings.corsOrigins says', async () => {
    const headers = { origin: 'https://app.example', 'access-control-request-method': 'POST' };
    const proxyPreflight = await http('OPTIONS', `${d.origin}/protocol-a/v1/chat/completions`, { headers });
    expect(proxyPreflight.headers['access-control-allow-origin']).toBe('https://app.example');
    const res = await http('OPTIONS', `${d.origin}/admin/keys`, { headers });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await d.admin('GET', '/admin/keys');
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('404s unknown admin paths and rejects malformed bodies', async () => {
    expect((await d.admin('GET', '/admin/nothing-here')).status).toBe(404);
    const bad = await d.admin('POST', '/admin/keys', '{not json');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'invalid_json' } });
    expect((await d.admin('POST', '/admin/keys', '[1,2]')).status).toBe(400);
  });
});

describe('admin API: keys', () => {
  it('create → use → revoke → the very next request is refused, on both header forms', async () => {
    const created = await d.admin('POST', '/admin/keys', { name: 'race' });
    expect(created.status).toBe(201);
    const { key, id } = created.json() as { key: string; id: string };
    const url = `${d.origin}/protocol-b/v1/messages`;
    expect((await http('POST', url, { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await http('POST', url, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const revoked = await d.admin('POST', '/admin/keys/revoke', { key: 'race' });
    expect(revoked.json()).toMatchObject({ id, alreadyRevoked: false });
    const a = await http('POST', url, { headers: { 'x-api-key': key } });
    const b = await http('POST', url, { headers: { authorization: `Bearer ${key}` } });
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(a.json()).toMatchObject({ type: 'error', error: { code: 'invalid_api_key' } });
  });

  it('lists keys without the key material', async () => {
    const created = (await d.admin('POST', '/admin/keys', { name: 'listed' })).json() as { key: string };
    const list = await d.admin('GET', '/admin/keys');
    expect(list.text).not.toContain(created.key);
    expect((list.json() as { keys: Array<{ name: string; state: string }> }).keys.find((k) => k.name === 'listed')).toMatchObject({ state: 'active' });
  });

  it('maps operation errors to their status and code', async () => {
    await d.admin('POST', '/admin/keys', { name: 'twice' });
    expect((await d.admin('POST', '/admin/keys', { name: 'twice' })).json()).toMatchObject({ error: { code: 'key_name_taken' } });
    const missing = await d.admin('POST', '/admin/keys/revoke', { key: 'who' });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'key_not_found' } });
  });
});

describe('admin API: providers, endpoints, local servers', () => {
  it('lists providers with source and last 4, never the credential', async () => {
    const res = await d.admin('GET', '/admin/providers');
    expect(res.text).not.toContain('gemini-env-value-5555');
    const gemini = (res.json() as { providers: Array<{ name: string }> }).providers.find((p) => p.name === 'gemini');
    expect(gemini).toMatchObject({ connected: true, source: 'env', last4: '5555' });
  });

  it('connect updates the proxy\'s credential cache before it returns; disconnect removes it', async () => {
    const put = await d.admin('PUT', '/admin/providers/anthropic/credential', { credential: 'sk-ant-admin-test-0009', insecureStorage: true });
    expect(put.status).toBe(200);
    expect(put.text).not.toContain('sk-ant-admin-test-0009');
    expect(put.json()).toMatchObject({ name: 'anthropic', storedIn: keychainOk ? 'keychain' : 'file', last4: '0009' });
    expect(d.deps.credential('anthropic')).toBe('sk-ant-admin-test-0009');
    const del = await d.admin('DELETE', '/admin/providers/anthropic/credential');
    expect(del.json()).toMatchObject({ removedFrom: [keychainOk ? 'keychain' : 'file'] });
    expect(d.deps.credential('anthropic')).toBeUndefined();
  });

  it.skipIf(keychainOk)('refuses to store without a keychain unless insecure storage is asked for', async () => {
    const res = await d.admin('PUT', '/admin/providers/openai/credential', { credential: 'sk-plain-0001' });
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({ error: { code: 'keychain_unavailable' } });
  });

  it('sets and resets a base URL', async () => {
    expect((await d.admin('PATCH', '/admin/providers/openrouter', { baseUrl: 'http://127.0.0.1:7777/api/v1' })).json()).toMatchObject({ overridden: true });
    expect(d.deps.config().providers.openrouter?.baseUrl).toBe('http://127.0.0.1:7777/api/v1');
    expect((await d.admin('PATCH', '/admin/providers/openrouter', { baseUrl: null })).json()).toMatchObject({ overridden: false });
    expect((await d.admin('PATCH', '/admin/providers/nope', { baseUrl: null })).status).toBe(400);
  });

  it('adds, lists and removes endpoints and local servers; the proxy sees endpoint credentials at once', async () => {
    const ep = await d.admin('POST', '/admin/endpoints', { slug: 'vllm', url: 'http://127.0.0.1:8000/v1', format: 'a', credential: 'vllm-secret-4321', insecureStorage: true });
    expect(ep.status).toBe(201);
    expect(ep.text).not.toContain('vllm-secret-4321');
    expect(d.deps.config().endpoints.vllm).toMatchObject({ format: 'a', hasCredential: true });
    expect(d.deps.credential('vllm')).toBe('vllm-secret-4321');
    expect(((await d.admin('GET', '/admin/endpoints')).json() as { endpoints: unknown[] }).endpoints).toHaveLength(1);
    // a built-in name is never valid (400); a slug another upstream has is taken as things stand (409)
    const builtin = await d.admin('POST', '/admin/endpoints', { slug: 'openai', url: 'http://x', format: 'b' });
    expect([builtin.status, (builtin.json() as { error: { code: string } }).error.code]).toEqual([400, 'slug_reserved']);
    const taken = await d.admin('POST', '/admin/endpoints', { slug: 'vllm', url: 'http://x', format: 'b' });
    expect([taken.status, (taken.json() as { error: { code: string } }).error.code]).toEqual([409, 'slug_taken']);
    expect((await d.admin('POST', '/admin/endpoints', { slug: 'x', url: 'http://x', format: 'z' })).status).toBe(400);
    const gw = await d.admin('POST', '/admin/endpoints', { slug: 'gw', url: 'https://gw.example/v1', format: 'a', authHeader: 'api-key', headers: { 'x-team': 'ml' } });
    expect(gw.status).toBe(201);
    expect(gw.json()).toMatchObject({ slug: 'gw', authHeader: 'api-key', headers: { 'x-team': 'ml' } });
    const refused = await d.admin('POST', '/admin/endpoints', { slug: 'gw2', url: 'https://gw.example/v1', format: 'a', headers: { cookie: 'session=1' } });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'invalid_header', message: expect.stringMatching(/^headers: cookie cannot be a fixed header/) } });
    expect((await d.admin('DELETE', '/admin/endpoints/gw')).status).toBe(200);
    const gateway = await d.admin('PUT', '/admin/providers/openrouter/headers', { authHeader: 'x-gateway-key', headers: { 'x-team': 'ml' } });
    expect(gateway.json()).toEqual({ name: 'openrouter', authHeader: 'x-gateway-key', headers: { 'x-team': 'ml' } });
    expect((await d.admin('PUT', '/admin/providers/openrouter/headers', { headers: { host: 'x' } })).json()).toMatchObject({ error: { code: 'invalid_header' } });
    expect((await d.admin('PUT', '/admin/providers/openrouter/headers', { authHeader: 'host' })).json()).toMatchObject({ error: { code: 'invalid_header', message: 'authHeader: host cannot carry the credential.' } });
    expect((await d.admin('PUT', '/admin/providers/nope/headers', {})).status).toBe(400);
    expect((await d.admin('PUT', '/admin/providers/openrouter/headers', {})).json()).toEqual({ name: 'openrouter' });
    expect((await d.admin('DELETE', '/admin/endpoints/vllm')).status).toBe(200);
    expect(d.deps.credential('vllm')).toBeUndefined();

    expect((await d.admin('POST', '/admin/locals', { slug: 'ollama', url: 'http://127.0.0.1:11434' })).status).toBe(201);
    expect(((await d.admin('GET', '/admin/locals')).json() as { locals: Array<{ slug: string }> }).locals.map((l) => l.slug)).toEqual(['ollama']);
    expect((await d.admin('DELETE', '/admin/locals/ollama')).status).toBe(200);
    expect((await d.admin('DELETE', '/admin/locals/ollama')).status).toBe(404);
  });
});

describe('admin API: provider headers a hand-edited config.json holds', () => {
  it('a credential the file holds in a fixed header is listed masked and kept by {"keep":true}; *** as a value, a keep of nothing, a changed or new credential are refused', async () => {
    const held = 'AIza-hand-edited-held-0001';
    const other = await ConfigStore.open(statePaths(d.dir));
    await other.update((c) => {
      c.providers.gemini = { ...c.providers.gemini, enabled: true, headers: { 'X-Goog-Api-Key': held, 'x-team': 'ml' } };
    });
    expect((await d.admin('POST', '/admin/config/reload')).status).toBe(200);
    const listed = await d.admin('GET', '/admin/providers');
    expect(listed.text).not.toContain(held);
    expect((listed.json() as { providers: Array<{ name: string; headers?: unknown }> }).providers.find((p) => p.name === 'gemini')!.headers).toEqual({ 'X-Goog-Api-Key': '***', 'x-team': 'ml' });
    const kept = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': { keep: true }, 'x-team': 'ai' } });
    expect(kept.status).toBe(200);
    expect(kept.json()).toEqual({ name: 'gemini', headers: { 'x-goog-api-key': '***', 'x-team': 'ai' } });
    expect((await ConfigStore.open(statePaths(d.dir))).current().providers.gemini?.headers).toEqual({ 'x-goog-api-key': held, 'x-team': 'ai' });
    // the value given back as it is still works (a client of an older TUI), and is not echoed
    const givenBack = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': held, 'x-team': 'ai' } });
    expect(givenBack.json()).toEqual({ name: 'gemini', headers: { 'x-goog-api-key': '***', 'x-team': 'ai' } });
    // *** is how a value is shown, never one: it would reach the upstream as it is
    const literal = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': '***', 'x-team': 'ai' } });
    expect(literal.status).toBe(400);
    expect(literal.json()).toMatchObject({ error: { code: 'invalid_header', message: expect.stringContaining('*** is how the value of x-goog-api-key is shown, not a value; send {"keep":true}') } });
    // with spaces around it too: a header's value reaches the upstream trimmed, so it would be *** there
    const spaced = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': { keep: true }, 'x-team': ' *** ' } });
    expect(spaced.status).toBe(400);
    expect(spaced.json()).toMatchObject({ error: { code: 'invalid_header' } });
    const keepsNothing = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': { keep: true }, 'x-other-token': { keep: true } } });
    expect(keepsNothing.json()).toMatchObject({ error: { code: 'invalid_header', message: 'headers: {"keep":true} keeps the value x-other-token has, and it has none: give its value.' } });
    for (const odd of [{ keep: false }, { keep: true, value: 'x' }, ['x']]) {
      expect((await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': odd } })).json()).toMatchObject({ error: { code: 'invalid_header', message: 'headers: the value of x-goog-api-key must be a string.' } });
    }
    const changed = await d.admin('PUT', '/admin/providers/gemini/headers', { headers: { 'x-goog-api-key': `${held}x`, 'x-team': 'ai' } });
    expect(changed.json()).toMatchObject({ error: { code: 'invalid_header', message: expect.stringMatching(/^headers: x-goog-api-key cannot be a fixed header/) } });
    expect(changed.text).not.toContain(held);
    // kept, it still may not be the key's header too
    const asAuth = await d.admin('PUT', '/admin/providers/gemini/headers', { authHeader: 'x-goog-api-key', headers: { 'x-goog-api-key': { keep: true } } });
    expect(asAuth.json()).toMatchObject({ error: { code: 'invalid_header' } });
    expect((await ConfigStore.open(statePaths(d.dir))).current().providers.gemini?.headers).toEqual({ 'x-goog-api-key': held, 'x-team': 'ai' });
    expect((await d.admin('PUT', '/admin/providers/gemini/headers', {})).json()).toEqual({ name: 'gemini' });
  });
});

describe('admin API: a base URL a hand-edited config.json holds with credentials', () => {
  it('is listed masked, and the listed URL given back is refused, the stored one left as it was', async () => {
    const held = 'https://gw-user:gw-pass-0001@gw.corp.example/openai?team=ml&sig=held-sig-0001';
    await (await ConfigStore.open(statePaths(d.dir))).update((c) => {
      c.providers.openai = { ...c.providers.openai, enabled: true, baseUrl: held };
    });
    expect((await d.admin('POST', '/admin/config/reload')).status).toBe(200);
    const listed = await d.admin('GET', '/admin/providers');
    expect(listed.text).not.toContain('gw-pass-0001');
    expect(listed.text).not.toContain('held-sig-0001');
    const shown = (listed.json() as { providers: Array<{ name: string; baseUrl: string }> }).providers.find((p) => p.name === 'openai')!.baseUrl;
    expect(shown).toBe('https://***@gw.corp.example/openai?team=ml&sig=***');
    for (const url of [shown, 'https://gw.corp.example/openai?team=ml&sig=***', 'https://gw.corp.example/openai?team=ml&sig=other']) {
      const back = await d.admin('PATCH', '/admin/providers/openai', { baseUrl: url });
      expect(back.status, url).toBe(400);
      expect(back.json(), url).toMatchObject({ error: { code: 'invalid_url' } });
    }
    expect((await ConfigStore.open(statePaths(d.dir))).current().providers.openai?.baseUrl).toBe(held);
    await (await ConfigStore.open(statePaths(d.dir))).update((c) => {
      c.providers.openai = { enabled: true };
    });
  });
});

describe('admin API: status and config', () => {
  it('reports pid, port, uptime, base URLs, providers and keys', async () => {
    const s = (await d.admin('GET', '/admin/status')).json() as Record<string, unknown>;
    expect(s).toMatchObject({
      running: true,
      pid: process.pid,
      port: d.daemon.port,
      host: '127.0.0.1',
      baseUrls: { a: `${d.origin}/protocol-a/v1`, b: `${d.origin}/protocol-b` },
      configProblem: null,
    });
    expect(typeof s.uptimeSeconds).toBe('number');
    expect((s.providers as unknown[]).length).toBe(4);
    expect(s.keychain).toHaveProperty('available');
  });

  it('reload applies a hand edit now, or answers 409 config_invalid and keeps the old config', async () => {
    const file = d.daemon.paths.config;
    const config = JSON.parse(await readFile(file, 'utf8'));
    config.settings.logBodies = true;
    await writeFile(file, JSON.stringify(config));
    const ok = await d.admin('POST', '/admin/config/reload');
    expect(ok.status).toBe(200);
    expect(d.deps.config().settings.logBodies).toBe(true);

    await writeFile(file, '{');
    const bad = await d.admin('POST', '/admin/config/reload');
    expect(bad.status).toBe(409);
    expect(bad.json()).toMatchObject({ error: { code: 'config_invalid' } });
    expect(d.deps.config().settings.logBodies).toBe(true);
    config.settings.logBodies = false;
    await writeFile(file, JSON.stringify(config));
    expect((await d.admin('POST', '/admin/config/reload')).status).toBe(200);
    expect(d.deps.config().settings.logBodies).toBe(false);
  });
});
