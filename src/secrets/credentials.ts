/**
 * Provider and endpoint credentials from every source, in order of precedence:
 * environment variable (built-in providers only) > OS keychain > insecure file.
 */
import { BUILTIN_PROVIDERS, type BuiltinProvider } from '../config/schema.js';
import { CREDENTIAL_ENV_VARS } from '../config/builtin-providers.js';
import { OperationError } from '../config/errors.js';
import { credentialProblem } from './credential-check.js';
import { CredentialFile, type ModeNotice } from './file-store.js';
import { KeychainUnavailableError, type Keychain, type KeychainStatus } from './keychain.js';

export type CredentialSource = 'env' | 'keychain' | 'file';

export interface ResolvedCredential {
  value: string;
  source: CredentialSource;
}

export type StoredIn = 'keychain' | 'file';

export interface StoredProblem {
  storedIn: StoredIn;
  /** A sentence naming the slug, where its value is stored, what is wrong and the fix. */
  text: string;
}

const STORE_WORDS: Record<StoredIn, string> = { keychain: 'OS keychain', file: 'credentials file' };

/** The problem of a stored value, worded; undefined when it is usable. */
function checkStored(slug: string, storedIn: StoredIn, value: string): StoredProblem | undefined {
  const problem = credentialProblem(value);
  if (problem === undefined) return undefined;
  // an endpoint's re-add command needs its URL and format, which the resolver adds
  const fix = isBuiltinProvider(slug) ? `store it again with \`svc-proxy provider connect ${slug}\`.` : 'add the endpoint again with a usable key.';
  return { storedIn, text: `the credential of ${slug} stored in the ${STORE_WORDS[storedIn]} ${problem}; it is not used: ${fix}` };
}

export interface RemoveResult {
  removedFrom: StoredIn[];
  /** The keychain could not be asked (so it may still hold a copy). */
  keychainError?: string;
}

export interface HeardOptions {
  /** Also told what the credentials file says of its mode during this call (besides the file's own notice). */
  modeNotice?: ModeNotice;
}

export interface StoreOptions extends HeardOptions {
  /** Allow the 0600 file when no keychain is usable. */
  insecureStorage?: boolean;
}

/** What the management operations need from credentials, offline or inside the daemon. */
export interface CredentialService {
  resolve(slug: string): Promise<ResolvedCredential | undefined>;
  store(slug: string, secret: string, opts?: StoreOptions): Promise<StoredIn>;
  /** Removes the stored credential everywhere it is stored; says where it was. */
  remove(slug: string, opts?: HeardOptions): Promise<RemoveResult>;
  /** The environment variable that overrides this slug, when set. */
  envOverride(slug: string): string | undefined;
  /**
   * Why that variable's value cannot be used (the checks a stored credential passes), naming the
   * variable and never its value; the provider is then not connected, and no other source is used.
   */
  envProblem(slug: string): string | undefined;
  /**
   * Why the value stored in the keychain or credentials file cannot be used (put there by hand or
   * by another tool), naming where it is and never the value; the slug then counts as not connected.
   */
  storedProblem(slug: string): Promise<StoredProblem | undefined>;
  keychainStatus(): Promise<KeychainStatus>;
}

type Env = Record<string, string | undefined>;

export function isBuiltinProvider(slug: string): slug is BuiltinProvider {
  return (BUILTIN_PROVIDERS as readonly string[]).includes(slug);
}

export class CredentialStore implements CredentialService {
  constructor(
    private readonly keychain: Keychain,
    private readonly file: CredentialFile,
    private readonly env: Env = process.env,
  ) {}

  envOverride(slug: string): string | undefined {
    if (!isBuiltinProvider(slug)) return undefined;
    const name = CREDENTIAL_ENV_VARS[slug];
    return this.env[name]?.trim() ? name : undefined;
  }

  envProblem(slug: string): string | undefined {
    const name = this.envOverride(slug);
    const problem = name === undefined ? undefined : credentialProblem((this.env[name] as string).trim());
    return problem === undefined ? undefined : `${name}, which the daemon reads for ${slug}, ${problem}; its value is not used: fix or unset it where the daemon is started, then restart it.`;
  }

  async resolve(slug: string, signal?: AbortSignal): Promise<ResolvedCredential | undefined> {
    return (await this.read(slug, signal)).credential;
  }

  /**
   * The credential, or none — and, when none was found while the keychain could not be asked,
   * why (`keychainDown`): "not stored" and "could not tell" differ for a cache that already holds one.
   */
  async storedProblem(slug: string): Promise<StoredProblem | undefined> {
    return (await this.read(slug)).storedProblem;
  }

  /**
   * `storedProblem`: the stored value fails the checks a connected one passes, so it is not given
   * out as the credential (the caller caches this with the read, not per request).
   */
  async read(slug: string, signal?: AbortSignal): Promise<{ credential?: ResolvedCredential; keychainDown?: string; storedProblem?: StoredProblem }> {
    const envName = this.envOverride(slug);
    // a variable set wins even when unusable: falling back to the keychain would hide it (envProblem)
    if (envName) return this.envProblem(slug) === undefined ? { credential: { value: (this.env[envName] as string).trim(), source: 'env' } } : {};
    let keychainDown: string | undefined;
    try {
      const fromKeychain = await this.keychain.get(slug, signal);
      if (fromKeychain) return usableOrProblem(slug, 'keychain', fromKeychain);
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      keychainDown = err.message;
    }
    const fromFile = await this.file.get(slug);
    if (fromFile) return usableOrProblem(slug, 'file', fromFile);
    return keychainDown === undefined ? {} : { keychainDown };
  }

  async store(slug: string, secret: string, opts: StoreOptions = {}): Promise<StoredIn> {
    try {
      await this.keychain.set(slug, secret);
      // One home per credential: drop an older insecure copy.
      await this.file.delete(slug, opts.modeNotice).catch(() => {});
      return 'keychain';
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      if (!opts.insecureStorage) {
        throw new OperationError(
          503,
          'keychain_unavailable',
          `No usable OS keychain (${err.message}). Either run where a keychain (Secret Service) is available, ` +
            `pass --insecure-storage to keep the credential in ${this.file.path} (mode 0600), ` +
            `or give the daemon an environment variable${isBuiltinProvider(slug) ? ` (${CREDENTIAL_ENV_VARS[slug]})` : ''}.`,
        );
      }
      await this.file.set(slug, secret, opts.modeNotice);
      return 'file';
    }
  }

  async remove(slug: string, opts: HeardOptions = {}): Promise<RemoveResult> {
    const removedFrom: StoredIn[] = [];
    let keychainError: string | undefined;
    try {
      if (await this.keychain.delete(slug)) removedFrom.push('keychain');
    } catch (err) {
      if (!(err instanceof KeychainUnavailableError)) throw err;
      keychainError = err.message;
    }
    if (await this.file.delete(slug, opts.modeNotice)) removedFrom.push('file');
    return keychainError ? { removedFrom, keychainError } : { removedFrom };
  }

  keychainStatus(): Promise<KeychainStatus> {
    return this.keychain.probe();
  }
}

function usableOrProblem(slug: string, storedIn: StoredIn, value: string): { credential?: ResolvedCredential; storedProblem?: StoredProblem } {
  const storedProblem = checkStored(slug, storedIn, value);
  return storedProblem ? { storedProblem } : { credential: { value, source: storedIn } };
}

/** Last four characters, for listings; short secrets show nothing. */
export function last4(secret: string): string {
  return secret.length >= 12 ? secret.slice(-4) : '';
}
