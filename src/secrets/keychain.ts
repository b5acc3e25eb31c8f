/**
 * The OS keychain through @napi-rs/keyring (service "svc-proxy", account = provider or endpoint slug).
 *
 * On Linux the store is pinned to the Secret Service: the library's default silently falls back to
 * the kernel keyring, which loses the secret at logout (and on this platform leaves it half-written).
 * With the store pinned, an unusable Secret Service makes the Entry constructor throw, so every
 * construction sits inside the try.
 */
import type { AsyncEntry as AsyncEntryType, EntryOptions } from '@napi-rs/keyring';

export const DEFAULT_KEYCHAIN_SERVICE = 'svc-proxy';
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } };

export class KeychainUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'KeychainUnavailableError';
  }
}

export type KeychainStatus = { available: true } | { available: false; reason: string };

export interface Keychain {
  readonly service: string;
  get(account: string, signal?: AbortSignal): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True if something was deleted. */
  delete(account: string): Promise<boolean>;
  /** Can we talk to the keychain at all? (No write.) */
  probe(): Promise<KeychainStatus>;
}

type AsyncEntryClass = typeof AsyncEntryType;
let entryClass: Promise<AsyncEntryClass> | undefined;

/** Load the native module only when a keychain is actually used (keeps the CLI start cheap). */
function loadEntryClass(): Promise<AsyncEntryClass> {
  entryClass ??= import('@napi-rs/keyring').then((m) => m.AsyncEntry);
  return entryClass;
}

/** Keychain messages are about D-Bus and stores, never about the secret; keep them short. */
function reasonOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

export function createKeychain(service: string = DEFAULT_KEYCHAIN_SERVICE): Keychain {
  async function entry(account: string): Promise<AsyncEntryType> {
    let AsyncEntry: AsyncEntryClass;
    try {
      AsyncEntry = await loadEntryClass();
    } catch (err) {
      throw new KeychainUnavailableError(`the keychain library could not load: ${reasonOf(err)}`);
    }
    try {
      return new AsyncEntry(service, account, ENTRY_OPTIONS);
    } catch (err) {
      throw new KeychainUnavailableError(reasonOf(err));
    }
  }

  async function attempt<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (err instanceof KeychainUnavailableError) throw err;
      throw new KeychainUnavailableError(reasonOf(err));
    }
  }

  return {
    service,
    async get(account, signal) {
      const e = await entry(account);
      return attempt(() => e.getPassword(signal));
    },
    async set(account, secret) {
      const e = await entry(account);
      await attempt(() => e.setPassword(secret));
    },
    async delete(account) {
      const e = await entry(account);
      return attempt(() => e.deletePassword());
    },
    async probe() {
      try {
        const e = await entry('__svc-proxy-probe__');
        await e.getPassword();
        return { available: true };
      } catch (err) {
        return { available: false, reason: reasonOf(err) };
      }
    },
  };
}
