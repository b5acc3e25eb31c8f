/**
 * Against a real Secret Service (npm test provides a throwaway one through scripts/with-keychain.sh).
 * Skipped with a printed reason when none is usable; REQUIRE_KEYCHAIN=1 turns the skip into a failure.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CredentialStore } from '../../src/secrets/credentials.js';
import { CredentialFile } from '../../src/secrets/file-store.js';
import { createKeychain, KeychainUnavailableError } from '../../src/secrets/keychain.js';
import { NO_KEYCHAIN_ENV, ROOT, keychainTestsEnabled, removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';

const enabled = await keychainTestsEnabled('Secret Service keychain tests');
const service = testKeychainService();
const keychain = createKeychain(service);

afterAll(async () => {
  for (const account of ['anthropic', 'unicode', 'overwrite', 'via-store']) await keychain.delete(account).catch(() => {});
  await removeTempDirs();
});

describe.skipIf(!enabled)('OS keychain (Secret Service)', () => {
  it('probes as available', async () => {
    expect(await keychain.probe()).toEqual({ available: true });
  });

  it('stores, reads and deletes a secret under service/account', async () => {
    await keychain.set('anthropic', 'sk-ant-api03-keychain-test-0001');
    expect(await keychain.get('anthropic')).toBe('sk-ant-api03-keychain-test-0001');
    expect(await keychain.delete('anthropic')).toBe(true);
    expect(await keychain.get('anthropic')).toBeNull();
    expect(await keychain.delete('anthropic')).toBe(false);
  });

  it('overwrites, and keeps unicode intact', async () => {
    await keychain.set('overwrite', 'one');
    await keychain.set('overwrite', 'two');
    expect(await keychain.get('overwrite')).toBe('two');
    await keychain.set('unicode', 'ключ-🔑-鍵');
    expect(await keychain.get('unicode')).toBe('ключ-🔑-鍵');
  });

  it('is what CredentialStore uses first, with no file written', async () => {
    const dir = await tempStateDir();
    const file = new CredentialFile(join(dir, 'credentials.json'));
    const store = new CredentialStore(keychain, file, {});
    expect(await store.store('via-store', 'secret-via-store-0042')).toBe('keychain');
    expect(await store.resolve('via-store')).toEqual({ value: 'secret-via-store-0042', source: 'keychain' });
    expect(await file.readAll()).toEqual({});
    expect(await store.remove('via-store')).toEqual({ removedFrom: ['keychain'] });
  });

  it('keeps services apart (tests never see the real "svc-proxy" entries)', async () => {
    const other = createKeychain(testKeychainService());
    await keychain.set('anthropic', 'mine');
    expect(await other.get('anthropic')).toBeNull();
    await keychain.delete('anthropic');
  });
});

describe.skipIf(process.platform !== 'linux')('OS keychain unavailable', () => {
  it('fails fast with KeychainUnavailableError, never falling back to the kernel keyring', () => {
    // A fresh process, so the bad bus address is what the native module sees from the start.
    const script = `
      import { createKeychain, KeychainUnavailableError } from './src/secrets/keychain.ts';
      const k = createKeychain('svc-proxy-test-unavailable');
      const started = Date.now();
      const results = {};
      for (const [name, op] of [['set', () => k.set('a', 'secret')], ['get', () => k.get('a')]]) {
        try { await op(); results[name] = 'ok'; } catch (e) { results[name] = e instanceof KeychainUnavailableError ? 'unavailable' : 'other:' + e; }
      }
      results.probe = await k.probe();
      results.ms = Date.now() - started;
      console.log(JSON.stringify(results));
    `;
    const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, ...NO_KEYCHAIN_ENV },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(res.status, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout.trim().split('\n').pop() as string);
    expect(out.set).toBe('unavailable');
    expect(out.get).toBe('unavailable');
    expect(out.probe.available).toBe(false);
    expect(out.probe.reason).toMatch(/dbus|bus|secret/i);
    expect(out.ms).toBeLessThan(2_000);
    expect(KeychainUnavailableError).toBeDefined();
  });
});
