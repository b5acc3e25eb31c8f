import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { CredentialStore } from '../../src/secrets/credentials.js';
import { CredentialFile } from '../../src/secrets/file-store.js';
import {
  addEndpoint,
  addLocal,
  connectProvider,
  disconnectProvider,
  listEndpoints,
  listLocals,
  listProviders,
  removeEndpoint,
  removeLocal,
  setProviderBaseUrl,
} from '../../src/secrets/operations.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';
import { FakeKeychain } from './fake-keychain.js';

afterEach(removeTempDirs);

async function setup(env: Record<string, string> = {}) {
  const paths = statePaths(await tempStateDir());
  const keychain = new FakeKeychain();
  const credentials = new CredentialStore(keychain, new CredentialFile(join(paths.dir, 'credentials.json')), env);
  return { paths, keychain, credentials, store: await ConfigStore.open(paths) };
}

describe('providers', () => {
  it('lists each built-in provider with connection, source, last 4 and base URL', async () => {
    const { store, credentials, keychain } = await setup({ GEMINI_API_KEY: 'gemini-env-key-7777' });
    keychain.entries.set('anthropic', 'sk-ant-api03-xxxxxxxx9876');
    const list = await listProviders(store.current(), credentials);
    expect(list.map((p) => p.name)).toEqual(['anthropic', 'openai', 'openrouter', 'gemini']);
    expect(list[0]).toMatchObject({ connected: true, source: 'keychain', last4: '9876', baseUrl: 'https://api.anthropic.com', baseUrlOverridden: false });
    expect(list[1]).toMatchObject({ connected: false, source: null, last4: '' });
    expect(list[3]).toMatchObject({ connected: true, source: 'env', last4: '7777' });
    expect(JSON.stringify(list)).not.toContain('xxxxxxxx9876');
  });

  it('connects and disconnects, noting environment overrides', async () => {
    const { store, credentials, keychain } = await setup({ OPENAI_API_KEY: 'env-openai' });
    expect(await connectProvider(credentials, 'anthropic', '  sk-ant-secret-abcd1234 \n')).toEqual({ name: 'anthropic', storedIn: 'keychain', last4: '1234' });
    expect(keychain.entries.get('anthropic')).toBe('sk-ant-secret-abcd1234');
    expect(await connectProvider(credentials, 'openai', 'sk-openai-secret-0000')).toMatchObject({ overriddenByEnv: 'OPENAI_API_KEY' });
    expect(await disconnectProvider(store.current(), credentials, 'anthropic')).toEqual({ name: 'anthropic', removedFrom: ['keychain'], stillUsedBy: [] });
    expect(await disconnectProvider(store.current(), credentials, 'openai')).toEqual({ name: 'openai', removedFrom: ['keychain'], stillConnectedViaEnv: 'OPENAI_API_KEY', stillUsedBy: [] });
  });

  it('a variable set but unusable overrides nothing: connect says the stored key is unused while it is set, disconnect leaves nothing connected', async () => {
    const { store, credentials } = await setup({ OPENAI_API_KEY: "'sk-proj-quoted-Secret_Op1'" });
    await store.update((config) => {
      config.groups.work = { models: [{ name: 'coder', targets: ['openai/gpt-5'] }], created: '2026-01-01T00:00:00.000Z' };
    });
    const connected = await connectProvider(credentials, 'openai', 'sk-openai-secret-0000');
    expect(connected).toEqual({
      name: 'openai',
      storedIn: 'keychain',
      last4: '0000',
      unusableEnv: 'OPENAI_API_KEY',
      credentialProblem: 'OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes (give the key without them); its value is not used: fix or unset it where the daemon is started, then restart it.',
    });
    expect(await disconnectProvider(store.current(), credentials, 'openai')).toEqual({ name: 'openai', removedFrom: ['keychain'], stillUsedBy: [{ group: 'work', name: 'coder', targets: ['openai/gpt-5'] }] });
  });

  it('disconnect names the model groups that still route to the provider, unless the environment keeps it connected', async () => {
    const { store, credentials } = await setup({ OPENAI_API_KEY: 'env-openai' });
    await store.update((config) => {
      config.groups.work = { models: [{ name: 'coder', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5'] }], created: '2026-01-01T00:00:00.000Z' };
    });
    await connectProvider(credentials, 'anthropic', 'sk-ant-secret-abcd1234');
    expect((await disconnectProvider(store.current(), credentials, 'anthropic')).stillUsedBy).toEqual([{ group: 'work', name: 'coder', targets: ['anthropic/claude-sonnet-4-5'] }]);
    expect((await disconnectProvider(store.current(), credentials, 'openai')).stillUsedBy).toEqual([]);
  });

  it('refuses unknown providers and unusable credentials', async () => {
    const { credentials } = await setup();
    await expect(connectProvider(credentials, 'mistral', 'k')).rejects.toMatchObject({ status: 400, code: 'unknown_provider' });
    await expect(connectProvider(credentials, 'openai', '   ')).rejects.toMatchObject({ status: 400, code: 'invalid_credential' });
    await expect(connectProvider(credentials, 'openai', 'two words')).rejects.toMatchObject({ code: 'invalid_credential' });
    await expect(connectProvider(credentials, 'openai', 'ключ')).rejects.toMatchObject({ code: 'invalid_credential' });
    await expect(connectProvider(credentials, 'openai', 42)).rejects.toMatchObject({ code: 'invalid_credential' });
    // quotes a .env file or a pasted shell line kept around the key
    for (const quoted of ['"sk-proj-quoted-1234"', "'sk-proj-quoted-1234'", '`sk-proj-quoted-1234`']) {
      await expect(connectProvider(credentials, 'openai', quoted)).rejects.toMatchObject({ code: 'invalid_credential', message: 'The credential is wrapped in quotes (give the key without them).' });
    }
    expect((await connectProvider(credentials, 'openai', 'sk-proj-"inner"-1234\n')).last4).toBe('1234');
  });

  it('overrides and resets the base URL', async () => {
    const { store, credentials } = await setup();
    expect(await setProviderBaseUrl(store, 'openai', 'http://127.0.0.1:9000/v1/')).toEqual({ name: 'openai', baseUrl: 'http://127.0.0.1:9000/v1', overridden: true });
    expect(store.current().providers.openai?.baseUrl).toBe('http://127.0.0.1:9000/v1');
    expect((await listProviders(store.current(), credentials))[1]).toMatchObject({ baseUrl: 'http://127.0.0.1:9000/v1', baseUrlOverridden: true });
    expect(await setProviderBaseUrl(store, 'openai', null)).toEqual({ name: 'openai', baseUrl: 'https://api.openai.com/v1', overridden: false });
    expect(store.current().providers.openai?.baseUrl).toBeUndefined();
    await expect(setProviderBaseUrl(store, 'openai', 'ftp://x')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(setProviderBaseUrl(store, 'openai', 'not a url')).rejects.toMatchObject({ code: 'invalid_url' });
    await expect(setProviderBaseUrl(store, 'nope', 'http://x')).rejects.toMatchObject({ code: 'unknown_provider' });
  });
});

describe('custom endpoints', () => {
  it('adds with and without a credential, lists, and removes (credential included)', async () => {
    const { store, credentials, keychain } = await setup();
    const a = await addEndpoint(store, credentials, { slug: 'vllm', url: 'http://127.0.0.1:8000/v1', format: 'a', credential: 'vllm-token-12345678' });
    expect(a).toMatchObject({ slug: 'vllm', format: 'a', hasCredential: true, source: 'keychain', last4: '5678' });
    const b = await addEndpoint(store, credentials, { slug: 'proxy-b', url: 'https://example.com', format: 'b', credential: '' });
    expect(b).toMatchObject({ hasCredential: false, source: null });
    expect((await listEndpoints(store.current(), credentials)).map((e) => e.slug)).toEqual(['vllm', 'proxy-b']);
    expect(await removeEndpoint(store, credentials, 'vllm')).toEqual({ slug: 'vllm', removedCredentialFrom: ['keychain'], stillUsedBy: [] });
    expect(keychain.entries.has('vllm')).toBe(false);
    await expect(removeEndpoint(store, credentials, 'vllm')).rejects.toMatchObject({ status: 404, code: 'endpoint_not_found' });
  });

  it('refuses built-in names, taken slugs, bad slugs, bad formats and bad URLs', async () => {
    const { store, credentials, keychain } = await setup();
    await expect(addEndpoint(store, credentials, { slug: 'openai', url: 'http://x', format: 'a' })).rejects.toMatchObject({ status: 400, code: 'slug_reserved' });
    await addLocal(store, { slug: 'ollama', url: 'http://127.0.0.1:11434' });
    await expect(addEndpoint(store, credentials, { slug: 'ollama', url: 'http://x', format: 'a', credential: 'tok-abc' })).rejects.toMatchObject({ status: 409, code: 'slug_taken' });
    expect(keychain.entries.has('ollama')).toBe(false); // nothing stored for a refused add
    await expect(addEndpoint(store, credentials, { slug: 'Bad Slug', url: 'http://x', format: 'a' })).rejects.toMatchObject({ status: 400, code: 'invalid_slug' });
    await expect(addEndpoint(store, credentials, { slug: 'ok', url: 'http://x', format: 'c' })).rejects.toMatchObject({ code: 'invalid_format' });
    await expect(addEndpoint(store, credentials, { slug: 'ok', url: 'nope', format: 'a' })).rejects.toMatchObject({ code: 'invalid_url' });
  });

  it('does not store a credential when the keychain is missing and insecure storage was not asked for', async () => {
    const { store, credentials, keychain } = await setup();
    keychain.unavailable = 'no bus';
    await expect(addEndpoint(store, credentials, { slug: 'ep', url: 'http://x', format: 'a', credential: 'tok-1234567890' })).rejects.toMatchObject({ code: 'keychain_unavailable' });
    expect(store.current().endpoints.ep).toBeUndefined();
    const added = await addEndpoint(store, credentials, { slug: 'ep', url: 'http://x', format: 'a', credential: 'tok-1234567890', insecureStorage: true });
    expect(added.source).toBe('file');
  });
});

describe('local servers', () => {
  it('adds, lists and removes; slugs share the namespace with endpoints and providers', async () => {
    const { store, credentials } = await setup();
    expect(await addLocal(store, { slug: 'lmstudio', url: 'http://127.0.0.1:1234/v1' })).toMatchObject({ slug: 'lmstudio', detected: false });
    expect(listLocals(store.current()).map((l) => l.slug)).toEqual(['lmstudio']);
    await expect(addLocal(store, { slug: 'gemini', url: 'http://x' })).rejects.toMatchObject({ status: 400, code: 'slug_reserved' });
    await addEndpoint(store, credentials, { slug: 'ep', url: 'http://x', format: 'a' });
    await expect(addLocal(store, { slug: 'ep', url: 'http://x' })).rejects.toMatchObject({ code: 'slug_taken' });
    expect(await removeLocal(store, 'lmstudio')).toEqual({ slug: 'lmstudio', stillUsedBy: [] });
    await expect(removeLocal(store, 'lmstudio')).rejects.toMatchObject({ status: 404, code: 'local_not_found' });
  });
});
