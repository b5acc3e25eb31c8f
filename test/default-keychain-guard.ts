/**
 * Vitest global setup: the suite must leave the default keychain service ("svc-proxy") as it found
 * it. Tests store keys under a service of their own (harness.ts `testKeychainService()`); an entry
 * under the default one is seen by every later daemon of the run that has no service of its own
 * (one made `models` find a provider connected) and, outside the test keyring, by the developer's
 * real daemon. Checked only inside scripts/with-keychain.sh's throwaway keyring
 * (SVC_PROXY_TEST_KEYRING=1): listing a developer's real keychain could show their own keys.
 */
import { findCredentialsAsync } from '@napi-rs/keyring';
import { DEFAULT_KEYCHAIN_SERVICE } from '../src/secrets/keychain.js';

/** Accounts under the default service, or undefined when no Secret Service answers. */
export async function defaultServiceAccounts(): Promise<string[] | undefined> {
  try {
    return (await findCredentialsAsync(DEFAULT_KEYCHAIN_SERVICE)).map((c) => c.account).sort();
  } catch {
    // no Secret Service: nothing can have been stored there either
    return undefined;
  }
}

/** Accounts in `after` that were not in `before`; a message naming them, or undefined. */
export function leakedAccountsMessage(before: readonly string[], after: readonly string[]): string | undefined {
  const added = after.filter((a) => !before.includes(a));
  if (added.length === 0) return undefined;
  return (
    `the test run stored ${added.length === 1 ? 'an entry' : 'entries'} in the default keychain service "${DEFAULT_KEYCHAIN_SERVICE}" ` +
    `for ${added.map((a) => `"${a}"`).join(', ')}: give the test that stores it SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService()`
  );
}

const ARMED = Symbol.for('svc-proxy.default-keychain-guard');

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.SVC_PROXY_TEST_KEYRING !== '1') return undefined;
  // each vitest project runs the global setup; one check (and one message) is enough
  const holder = globalThis as { [ARMED]?: boolean };
  if (holder[ARMED]) return undefined;
  const before = await defaultServiceAccounts();
  if (before === undefined) return undefined;
  holder[ARMED] = true;
  return async () => {
    holder[ARMED] = false;
    const message = leakedAccountsMessage(before, (await defaultServiceAccounts()) ?? before);
    if (!message) return;
    // vitest only logs a teardown's error ("error during close") and keeps the exit code
    process.exitCode = 1;
    throw new Error(message);
  };
}
