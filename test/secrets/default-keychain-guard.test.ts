/**
 * The suite's guard on the default keychain service (test/default-keychain-guard.ts): it must name
 * an account stored there during the run. Only inside with-keychain.sh's throwaway keyring, as the
 * guard itself: this test writes to the default service, which outside it is the developer's own.
 */
import { describe, expect, it } from 'vitest';
import { createKeychain } from '../../src/secrets/keychain.js';
import setup, { leakedAccountsMessage } from '../default-keychain-guard.js';
import { keychainTestsEnabled } from '../daemon/harness.js';

describe('default keychain guard', () => {
  it('names only the accounts added since it started', () => {
    expect(leakedAccountsMessage(['old'], ['old'])).toBeUndefined();
    expect(leakedAccountsMessage(['old'], ['ca', 'corp', 'old'])).toMatch(/default keychain service "svc-proxy" for "ca", "corp"/);
  });

  it.runIf(process.env.SVC_PROXY_TEST_KEYRING === '1')('fails its teardown when an entry lands in "svc-proxy"', async () => {
    if (!(await keychainTestsEnabled('default keychain guard'))) return;
    const teardown = await setup();
    expect(teardown, 'the guard is armed inside the test keyring').toBeTypeOf('function');
    const account = `guard-probe-${process.pid}`;
    const defaultService = createKeychain();
    await defaultService.set(account, 'guard-probe-secret');
    const exitCode = process.exitCode;
    try {
      await expect(teardown!()).rejects.toThrow(`"${account}"`);
      expect(process.exitCode, 'vitest keeps the exit code after a teardown error: the guard sets it').toBe(1);
    } finally {
      // this worker's exit code is not the run's: put it back
      process.exitCode = exitCode;
      await defaultService.delete(account);
    }
    await expect(teardown!()).resolves.toBeUndefined();
  });
});
