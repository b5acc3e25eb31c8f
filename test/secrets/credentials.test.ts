import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OperationError } from '../../src/config/errors.js';
import { CredentialCache, credentialSlugs, describeCredentialChanges } from '../../src/secrets/cache.js';
import { CredentialStore, last4 } from '../../src/secrets/credentials.js';
import { CredentialFile } from '../../src/secrets/file-store.js';
import { defaultConfig } from '../../src/config/schema.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';
import { FakeKeychain } from './fake-keychain.js';

afterEach(removeTempDirs);

async function setup(env: Record<string, string> = {}) {
  const dir = await tempStateDir();
  const keychain = new FakeKeychain();
  const file = new CredentialFile(join(dir, 'credentials.json'));
  return { dir, keychain, file, store: new CredentialStore(keychain, file, env) };
}

describe('CredentialStore', () => {
  it('resolves env > keychain > file', async () => {
    const { keychain, file, store } = await setup({ ANTHROPIC_API_KEY: ' env-secret-anthropic ' });
    await file.set('anthropic', 'file-secret');
    await file.set('openai', 'file-secret-openai');
    keychain.entries.set('anthropic', 'keychain-secret');
    keychain.entries.set('openrouter', 'keychain-secret-or');
    expect(await store.resolve('anthropic')).toEqual({ value: 'env-secret-anthropic', source: 'env' });
    expect(await store.resolve('openrouter')).toEqual({ value: 'keychain-secret-or', source: 'keychain' });
    expect(await store.resolve('openai')).toEqual({ value: 'file-secret-openai', source: 'file' });
    expect(await store.resolve('gemini')).toBeUndefined();
  });

  it('an environment credential passes the checks a stored one does: an unusable one is named, never shown, and hides no other source', async () => {
    const bad = {
      OPENAI_API_KEY: '"sk-proj-dotenv-quoted-Secret_Ev1"',
      ANTHROPIC_API_KEY: 'sk-ant-two words-Secret_Ev2',
      GEMINI_API_KEY: 'AIza\u00e9-Secret_Ev3',
      OPENROUTER_API_KEY: 'sk-or-trailing-newline-Secret_Ev4\n',
    };
    const { keychain, store } = await setup(bad);
    keychain.entries.set('openai', 'keychain-secret-openai');
    expect(await store.resolve('openai')).toBeUndefined();
    expect(await store.resolve('anthropic')).toBeUndefined();
    expect(await store.resolve('gemini')).toBeUndefined();
    // a line break at the end is trimmed, as a stored credential's is
    expect(await store.resolve('openrouter')).toEqual({ value: 'sk-or-trailing-newline-Secret_Ev4', source: 'env' });
    expect(store.envProblem('openrouter')).toBeUndefined();
    expect(store.envProblem('openai')).toBe('OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes (give the key without them); its value is not used: fix or unset it where the daemon is started, then restart it.');
    expect(store.envProblem('anthropic')).toMatch(/^ANTHROPIC_API_KEY, .* contains spaces, line breaks or non-ASCII characters;/);
    expect(store.envProblem('gemini')).toMatch(/^GEMINI_API_KEY, .* contains spaces, line breaks or non-ASCII characters;/);
    for (const slug of ['openai', 'anthropic', 'gemini']) expect(store.envProblem(slug)).not.toContain('Secret_Ev');
    // the daemon's cache holds none of them
    const cache = new CredentialCache(store);
    await cache.refresh(credentialSlugs(defaultConfig()));
    expect([cache.get('openai'), cache.get('anthropic'), cache.get('gemini'), cache.get('openrouter')]).toEqual([undefined, undefined, undefined, 'sk-or-trailing-newline-Secret_Ev4']);
    expect(cache.envProblem('openai')).toBe(store.envProblem('openai'));
  });

  it('a stored value that fails the checks is not given out; where it is stored and why are, never the value', async () => {
    const { keychain, file, store } = await setup();
    keychain.entries.set('openai', '"sk-proj-keychain-quoted-Secret_St1"');
    await file.set('anthropic', 'sk-ant-two words-Secret_St2');
    await file.set('openrouter', 'sk-or-usable-file-key');
    expect(await store.resolve('openai')).toBeUndefined();
    expect(await store.resolve('anthropic')).toBeUndefined();
    expect(await store.storedProblem('openai')).toEqual({
      storedIn: 'keychain',
      text: 'the credential of openai stored in the OS keychain is wrapped in quotes (give the key without them); it is not used: store it again with `svc-proxy provider connect openai`.',
    });
    expect(await store.storedProblem('anthropic')).toMatchObject({ storedIn: 'file', text: expect.stringContaining('credentials file contains spaces') });
    expect(await store.storedProblem('openrouter')).toBeUndefined();
    // the daemon's cache checks once, when it reads the value: a lookup does not ask the stores again
    const cache = new CredentialCache(store);
    await cache.refresh(credentialSlugs(defaultConfig()));
    keychain.entries.set('openai', 'sk-proj-fixed-behind-its-back');
    expect(cache.get('openai')).toBeUndefined();
    expect(cache.storedProblemNow('openai')?.storedIn).toBe('keychain');
    expect(cache.get('openrouter')).toBe('sk-or-usable-file-key');
    // storing a usable key clears the problem
    await cache.store('openai', 'sk-proj-usable-key');
    expect([cache.get('openai'), cache.storedProblemNow('openai')]).toEqual(['sk-proj-usable-key', undefined]);
  });

  it('only built-in providers have environment overrides', async () => {
    const { store } = await setup({ MYEP_API_KEY: 'x', GEMINI_API_KEY: 'g' });
    expect(store.envOverride('gemini')).toBe('GEMINI_API_KEY');
    expect(store.envOverride('myep')).toBeUndefined();
  });

  it('stores in the keychain, and drops an older insecure copy', async () => {
    const { keychain, file, store } = await setup();
    await file.set('openai', 'old');
    expect(await store.store('openai', 'new-secret')).toBe('keychain');
    expect(keychain.entries.get('openai')).toBe('new-secret');
    expect(await file.get('openai')).toBeUndefined();
  });

  it('without a keychain: refuses plainly, or uses the 0600 file with insecureStorage', async () => {
    const { dir, keychain, store } = await setup();
    keychain.unavailable = 'DBus error: no bus';
    const err = (await store.store('anthropic', 'sk-ant-secret-value').catch((e: unknown) => e)) as OperationError;
    expect(err).toBeInstanceOf(OperationError);
    expect(err.code).toBe('keychain_unavailable');
    expect(err.message).toContain('--insecure-storage');
    expect(err.message).toContain('ANTHROPIC_API_KEY');
    expect(err.message).not.toContain('sk-ant-secret-value');

    expect(await store.store('anthropic', 'sk-ant-secret-value', { insecureStorage: true })).toBe('file');
    const path = join(dir, 'credentials.json');
    if (process.platform !== 'win32') expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8')).credentials.anthropic).toBe('sk-ant-secret-value');
    expect(await store.resolve('anthropic')).toEqual({ value: 'sk-ant-secret-value', source: 'file' });
  });

  it('removes from everywhere, and says when the keychain could not be asked', async () => {
    const { keychain, file, store } = await setup();
    keychain.entries.set('openai', 'k');
    await file.set('openai', 'f');
    expect(await store.remove('openai')).toEqual({ removedFrom: ['keychain', 'file'] });
    expect(await store.remove('openai')).toEqual({ removedFrom: [] });
    keychain.unavailable = 'locked';
    expect(await store.remove('openai')).toEqual({ removedFrom: [], keychainError: 'locked' });
    await file.set('openai', 'f2');
    expect(await store.remove('openai')).toEqual({ removedFrom: ['file'], keychainError: 'locked' });
  });

  it('shows only the last four characters of long secrets', () => {
    expect(last4('sk-ant-api03-abcdefgh1234')).toBe('1234');
    expect(last4('short')).toBe('');
  });
});

describe('CredentialCache', () => {
  it('serves credentials synchronously and updates on store/remove before returning', async () => {
    const { keychain, store } = await setup({ GEMINI_API_KEY: 'gem-env' });
    keychain.entries.set('openai', 'openai-key');
    const cache = new CredentialCache(store);
    await cache.refresh(credentialSlugs(defaultConfig()));
    expect(cache.get('openai')).toBe('openai-key');
    expect(cache.get('gemini')).toBe('gem-env');
    expect(cache.get('anthropic')).toBeUndefined();
    await cache.store('anthropic', 'ant-key');
    expect(cache.get('anthropic')).toBe('ant-key');
    await cache.remove('openai');
    expect(cache.get('openai')).toBeUndefined();
    // An env override survives a disconnect.
    await cache.remove('gemini');
    expect(cache.get('gemini')).toBe('gem-env');
  });

  it('includes endpoints that have a credential', () => {
    const config = defaultConfig();
    config.endpoints.mine = { url: 'http://x', format: 'a', hasCredential: true, created: '' };
    config.endpoints.open = { url: 'http://y', format: 'b', hasCredential: false, created: '' };
    expect(credentialSlugs(config)).toEqual(['anthropic', 'openai', 'openrouter', 'gemini', 'mine']);
  });

  it('does not wait forever on a keychain that never answers', async () => {
    const { store } = await setup();
    const hanging = new CredentialCache(
      Object.assign(Object.create(store) as CredentialStore, { read: () => new Promise(() => {}) }),
    );
    // the read never settles: only the 100 ms bound lets refresh return (or the test times out)
    await hanging.refresh(['openai'], 100);
    expect(hanging.get('openai')).toBeUndefined();
  });

  it('a keychain outage (unreachable, or silent) keeps the credentials already loaded; a real removal still drops one', async () => {
    const { keychain, store } = await setup();
    keychain.entries.set('anthropic', 'ant-key');
    keychain.entries.set('openai', 'openai-key');
    const cache = new CredentialCache(store);
    expect((await cache.refresh(['anthropic', 'openai'])).kept).toEqual([]);
    keychain.unavailable = 'Cannot autolaunch D-Bus without X11 $DISPLAY';
    // an endpoint with a key was added meanwhile: the slugs change and everything is read again
    expect((await cache.refresh(['anthropic', 'openai', 'mine'])).kept).toEqual(['anthropic', 'openai']);
    expect(cache.get('anthropic')).toBe('ant-key');
    expect(cache.get('openai')).toBe('openai-key');
    expect(cache.get('mine')).toBeUndefined();
    // a slug that is no longer wanted goes, outage or not
    await cache.refresh(['anthropic']);
    expect(cache.get('openai')).toBeUndefined();
    // back: a key removed from the keychain by hand is gone at the next read
    keychain.unavailable = null;
    keychain.entries.delete('anthropic');
    expect((await cache.refresh(['anthropic'])).kept).toEqual([]);
    expect(cache.get('anthropic')).toBeUndefined();
  });

  it('a silent keychain keeps what was loaded', async () => {
    const { keychain, store } = await setup();
    keychain.entries.set('openai', 'openai-key');
    let silent = false;
    const backing = Object.assign(Object.create(store) as CredentialStore, {
      read: (slug: string, signal?: AbortSignal) => (silent ? new Promise(() => {}) : store.read(slug, signal)),
    });
    const cache = new CredentialCache(backing);
    await cache.refresh(['openai'], 100);
    silent = true;
    expect((await cache.refresh(['openai'], 100)).kept).toEqual(['openai']);
    expect(cache.get('openai')).toBe('openai-key');
  });
  it('without a keychain, a key removed from the credentials file goes at the next refresh; a file that does not parse keeps what was loaded', async () => {
    const { dir, keychain, file, store } = await setup();
    keychain.unavailable = 'no Secret Service';
    await file.set('openai', 'file-openai-key');
    await file.set('anthropic', '"quoted-by-hand"');
    const cache = new CredentialCache(store);
    await cache.refresh(['openai', 'anthropic']);
    expect(cache.get('openai')).toBe('file-openai-key');
    expect(cache.storedProblemNow('anthropic')?.storedIn).toBe('file');
    // mid-edit: not JSON yet
    await writeFile(join(dir, 'credentials.json'), '{"version": 1, "credentials": {');
    expect((await cache.refresh(['openai', 'anthropic'])).kept).toEqual(['openai']);
    expect(cache.get('openai')).toBe('file-openai-key');
    expect(cache.unreadableFile).toBe(`${join(dir, 'credentials.json')} is not valid JSON; fix or delete it and connect again.`);
    // the edit done: both keys gone from the file, though the keychain still cannot say
    await writeFile(join(dir, 'credentials.json'), '{"version": 1, "credentials": {}}');
    expect((await cache.refresh(['openai', 'anthropic'])).kept).toEqual([]);
    expect(cache.unreadableFile).toBeUndefined();
    expect(cache.get('openai')).toBeUndefined();
    expect(cache.storedProblemNow('anthropic')).toBeUndefined();
  });

  it('a refresh says which slugs got, changed or lost a stored value (a usable key turned unusable is a change)', async () => {
    const { keychain, file, store } = await setup();
    keychain.unavailable = 'no Secret Service';
    await file.set('openai', 'file-openai-key');
    await file.set('anthropic', 'file-anthropic-key');
    const cache = new CredentialCache(store);
    expect(await cache.refresh(['openai', 'anthropic', 'gemini'])).toEqual({ kept: [], added: ['openai', 'anthropic'], replaced: [], removed: [] });
    expect(await cache.refresh(['openai', 'anthropic', 'gemini'])).toEqual({ kept: [], added: [], replaced: [], removed: [] });
    await file.set('openai', '"quoted-by-hand"');
    await file.delete('anthropic');
    await file.set('gemini', 'file-gemini-key');
    const outcome = await cache.refresh(['openai', 'anthropic', 'gemini']);
    expect(outcome).toEqual({ kept: [], added: ['gemini'], replaced: ['openai'], removed: ['anthropic'] });
    expect(describeCredentialChanges(outcome)).toBe('key added for gemini, key replaced for openai, key removed for anthropic');
  });

  it('a refresh under way when a key is stored, or overtaken by a newer refresh, does not put back what it read before', async () => {
    const { keychain, store } = await setup();
    keychain.entries.set('openai', 'old-key');
    const gates: Array<() => void> = [];
    const backing = Object.assign(Object.create(store) as CredentialStore, {
      // each read waits for the test to let it end, after reading the file at once
      read: async (slug: string, signal?: AbortSignal) => {
        const read = await store.read(slug, signal);
        await new Promise<void>((r) => gates.push(r));
        return read;
      },
    });
    const cache = new CredentialCache(backing);
    const first = cache.refresh(['openai']);
    while (gates.length < 1) await new Promise((r) => setTimeout(r, 1));
    gates.shift()!();
    await first;
    expect(cache.get('openai')).toBe('old-key');

    const slow = cache.refresh(['openai']); // reads old-key, then waits
    while (gates.length < 1) await new Promise((r) => setTimeout(r, 1));
    const stored = cache.store('openai', 'new-key');
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 1));
    gates.pop()!(); // the store's own re-read ends first
    await stored;
    gates.shift()!(); // then the slow refresh
    await slow;
    expect(cache.get('openai')).toBe('new-key');

    keychain.entries.set('openai', 'newer-key');
    const older = cache.refresh(['openai']);
    while (gates.length < 1) await new Promise((r) => setTimeout(r, 1));
    keychain.entries.set('openai', 'newest-key');
    const newer = cache.refresh(['openai']);
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 1));
    gates.pop()!(); // the newer one ends first
    await newer;
    gates.shift()!();
    await older;
    expect(cache.get('openai')).toBe('newest-key');
  });
});
