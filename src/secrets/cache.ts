/**
 * The daemon's in-memory view of credentials, so the proxy can read one synchronously on every
 * request. Loaded at start, refreshed on connect/disconnect and on config reload; writes go through
 * to the backing store first, then update the cache before the call returns.
 */
import type { Config } from '../config/schema.js';
import { BUILTIN_PROVIDERS } from '../config/schema.js';
import type { CredentialService, CredentialStore, RemoveResult, ResolvedCredential, StoreOptions, StoredIn, StoredProblem } from './credentials.js';
import type { KeychainStatus } from './keychain.js';

/** Slugs that can have a credential: the built-ins and endpoints marked as having one. */
export function credentialSlugs(config: Config): string[] {
  const endpoints = Object.entries(config.endpoints)
    .filter(([, e]) => e.hasCredential)
    .map(([slug]) => slug);
  return [...BUILTIN_PROVIDERS, ...endpoints];
}

export class CredentialCache implements CredentialService {
  private values = new Map<string, ResolvedCredential>();
  /** Stored values that failed the credential check, found when read (not per request). */
  private problems = new Map<string, StoredProblem>();

  constructor(private readonly backing: CredentialStore) {}

  /** Synchronous lookup for the request path. */
  get(slug: string): string | undefined {
    return this.values.get(slug)?.value;
  }

  /**
   * Re-read the given slugs from every source (others are dropped). A slug the keychain could not
   * be asked about — it is unreachable (its D-Bus session gone), failed, or did not answer within
   * `timeoutMs` (waiting on an unlock prompt) — keeps the credential already loaded: an outage must
   * not disconnect providers that work. Returns the slugs kept that way.
   */
  /** Synchronous, for the request path: why the stored value of `slug` is unusable. */
  storedProblemNow(slug: string): StoredProblem | undefined {
    return this.problems.get(slug);
  }

  async storedProblem(slug: string): Promise<StoredProblem | undefined> {
    return this.problems.get(slug);
  }

  async refresh(slugs: readonly string[], timeoutMs = 5_000): Promise<string[]> {
    const signal = AbortSignal.timeout(timeoutMs);
    // The signal asks the keychain to give up; the race makes sure we stop waiting even if it does not.
    const expired = new Promise<'timeout'>((resolve) => signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
    const entries = await Promise.all(
      slugs.map(async (slug) => {
        try {
          const read = await Promise.race([this.backing.read(slug, signal), expired]);
          return [slug, read === 'timeout' ? 'unknown' : read.keychainDown !== undefined ? 'unknown' : read.storedProblem ?? read.credential] as const;
        } catch {
          return [slug, 'unknown'] as const;
        }
      }),
    );
    const next = new Map<string, ResolvedCredential>();
    const problems = new Map<string, StoredProblem>();
    const kept: string[] = [];
    for (const [slug, value] of entries) {
      if (value === 'unknown') {
        const loaded = this.values.get(slug);
        const problem = this.problems.get(slug);
        if (loaded) {
          next.set(slug, loaded);
          kept.push(slug);
        } else if (problem) problems.set(slug, problem);
      } else if (value && 'storedIn' in value) problems.set(slug, value);
      else if (value) next.set(slug, value);
    }
    this.values = next;
    this.problems = problems;
    return kept;
  }

  async resolve(slug: string): Promise<ResolvedCredential | undefined> {
    return this.values.get(slug);
  }

  async store(slug: string, secret: string, opts?: StoreOptions): Promise<StoredIn> {
    const where = await this.backing.store(slug, secret, opts);
    await this.reread(slug);
    return where;
  }

  async remove(slug: string): Promise<RemoveResult> {
    const removed = await this.backing.remove(slug);
    await this.reread(slug);
    return removed;
  }

  envOverride(slug: string): string | undefined {
    return this.backing.envOverride(slug);
  }

  envProblem(slug: string): string | undefined {
    return this.backing.envProblem(slug);
  }

  keychainStatus(): Promise<KeychainStatus> {
    return this.backing.keychainStatus();
  }

  private async reread(slug: string): Promise<void> {
    const read = await this.backing.read(slug).catch(() => ({}) as Awaited<ReturnType<CredentialStore['read']>>);
    if (read.credential) this.values.set(slug, read.credential);
    else this.values.delete(slug);
    if (read.storedProblem) this.problems.set(slug, read.storedProblem);
    else this.problems.delete(slug);
  }
}
