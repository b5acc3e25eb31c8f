/**
 * The daemon's in-memory view of credentials, so the proxy can read one synchronously on every
 * request. Loaded at start, refreshed on connect/disconnect, on config reload and when the
 * credentials file changes on disk; writes go through to the backing store first, then update the
 * cache before the call returns.
 */
import type { Config } from '../config/schema.js';
import { BUILTIN_PROVIDERS } from '../config/schema.js';
import type { CredentialService, CredentialStore, HeardOptions, RemoveResult, ResolvedCredential, StoreOptions, StoredIn, StoredProblem } from './credentials.js';
import type { KeychainStatus } from './keychain.js';

/** Slugs that can have a credential: the built-ins and endpoints marked as having one. */
export function credentialSlugs(config: Config): string[] {
  const endpoints = Object.entries(config.endpoints)
    .filter(([, e]) => e.hasCredential)
    .map(([slug]) => slug);
  return [...BUILTIN_PROVIDERS, ...endpoints];
}

/** What a refresh did, by slug (names only: the values never leave the cache). */
export interface RefreshOutcome {
  /** Could not be read (keychain outage, credentials file mid-edit): the loaded credential stays. */
  kept: string[];
  /** Have a stored value now and had none before. */
  added: string[];
  /** Had one and have another now (a usable key and an unusable one count as different). */
  replaced: string[];
  /** Had one and have none now. */
  removed: string[];
}

/** A refresh's changes in words for daemon.log ("key added for openai, key replaced for anthropic"), or '' when none. */
export function describeCredentialChanges(outcome: RefreshOutcome): string {
  const parts: Array<[string, string[]]> = [
    ['added', outcome.added],
    ['replaced', outcome.replaced],
    ['removed', outcome.removed],
  ];
  return parts
    .filter(([, slugs]) => slugs.length > 0)
    .map(([what, slugs]) => `key ${what} for ${slugs.join(' and ')}`)
    .join(', ');
}

/** What a slug holds, to tell a refresh's changes: its value, the problem of its value, or nothing. */
function held(value: ResolvedCredential | undefined, problem: StoredProblem | undefined): string | undefined {
  if (value) return `value:${value.source}:${value.value}`;
  return problem ? `problem:${problem.storedIn}:${problem.text}` : undefined;
}

/** What one read of a slug found: a credential, a stored problem, nothing, or no answer. */
type SlugRead = ResolvedCredential | StoredProblem | undefined | 'unknown' | 'keychain-unknown';

export class CredentialCache implements CredentialService {
  private values = new Map<string, ResolvedCredential>();
  /** Stored values that failed the credential check, found when read (not per request). */
  private problems = new Map<string, StoredProblem>();
  /** Bumped by every refresh: an older one that ends after a newer one began is dropped. */
  private refreshes = 0;
  /** Bumped by every store/remove; `writtenAt` holds each slug's latest. */
  private writes = 0;
  private readonly writtenAt = new Map<string, number>();
  /** Why the last refresh could not read the credentials file (never its content), if it could not. */
  private fileProblem: string | undefined;

  constructor(private readonly backing: CredentialStore) {}

  /** Synchronous lookup for the request path. */
  get(slug: string): string | undefined {
    return this.values.get(slug)?.value;
  }

  /** Synchronous, for the request path: why the stored value of `slug` is unusable. */
  storedProblemNow(slug: string): StoredProblem | undefined {
    return this.problems.get(slug);
  }

  async storedProblem(slug: string): Promise<StoredProblem | undefined> {
    return this.problems.get(slug);
  }

  /**
   * Re-read the given slugs from every source (others are dropped). A slug that could not be read
   * — the keychain unreachable (its D-Bus session gone), failed, or silent for `timeoutMs` (an
   * unlock prompt), or the credentials file not valid JSON mid-edit — keeps the credential
   * already loaded: an outage must not disconnect providers that work. One that came from the
   * credentials file and is no longer there goes, keychain or not: the file said so. Returns the
   * slugs kept that way, and those whose credential came, changed or went.
   */
  async refresh(slugs: readonly string[], timeoutMs = 5_000): Promise<RefreshOutcome> {
    const refresh = ++this.refreshes;
    const writesBefore = this.writes;
    const signal = AbortSignal.timeout(timeoutMs);
    // The signal asks the keychain to give up; the race makes sure we stop waiting even if it does not.
    const expired = new Promise<'timeout'>((resolve) => signal.addEventListener('abort', () => resolve('timeout'), { once: true }));
    let fileProblem: string | undefined;
    const entries = await Promise.all(
      slugs.map(async (slug) => {
        const read = await this.readSlug(slug, signal, expired);
        if (read instanceof Error) fileProblem ??= read.message;
        return [slug, read instanceof Error ? 'unknown' : read] as const;
      }),
    );
    // a newer refresh read later, and sets what it found
    if (refresh !== this.refreshes) return { kept: [], added: [], replaced: [], removed: [] };
    this.fileProblem = fileProblem;
    const next = new Map<string, ResolvedCredential>();
    const problems = new Map<string, StoredProblem>();
    const kept: string[] = [];
    for (const [slug, value] of entries) {
      const loaded = this.values.get(slug);
      const problem = this.problems.get(slug);
      // connected or disconnected while this read was under way: that write's reread is newer
      if ((this.writtenAt.get(slug) ?? 0) > writesBefore) {
        if (loaded) next.set(slug, loaded);
        if (problem) problems.set(slug, problem);
      } else if (value === 'unknown' || value === 'keychain-unknown') {
        const fromKeychainOnly = value === 'keychain-unknown';
        if (loaded && !(fromKeychainOnly && loaded.source === 'file')) {
          next.set(slug, loaded);
          kept.push(slug);
        } else if (problem && !(fromKeychainOnly && problem.storedIn === 'file')) problems.set(slug, problem);
      } else if (value && 'storedIn' in value) problems.set(slug, value);
      else if (value) next.set(slug, value);
    }
    const outcome: RefreshOutcome = { kept, added: [], replaced: [], removed: [] };
    for (const slug of new Set([...this.values.keys(), ...this.problems.keys(), ...next.keys(), ...problems.keys()])) {
      const before = held(this.values.get(slug), this.problems.get(slug));
      const after = held(next.get(slug), problems.get(slug));
      if (before === after) continue;
      (before === undefined ? outcome.added : after === undefined ? outcome.removed : outcome.replaced).push(slug);
    }
    this.values = next;
    this.problems = problems;
    return outcome;
  }

  /** Why the last refresh kept credentials because the credentials file could not be read (not valid JSON, not readable). */
  get unreadableFile(): string | undefined {
    return this.fileProblem;
  }

  /** A thrown error is the credentials file's: the keychain's failures come back as `keychainDown`. */
  private async readSlug(slug: string, signal: AbortSignal, expired: Promise<'timeout'>): Promise<SlugRead | Error> {
    try {
      const read = await Promise.race([this.backing.read(slug, signal), expired]);
      if (read === 'timeout') return 'unknown';
      // nothing in the file and the keychain could not say
      if (read.keychainDown !== undefined) return 'keychain-unknown';
      return read.storedProblem ?? read.credential;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  async resolve(slug: string): Promise<ResolvedCredential | undefined> {
    return this.values.get(slug);
  }

  async store(slug: string, secret: string, opts?: StoreOptions): Promise<StoredIn> {
    const where = await this.backing.store(slug, secret, opts);
    await this.reread(slug);
    return where;
  }

  async remove(slug: string, opts?: HeardOptions): Promise<RemoveResult> {
    const removed = await this.backing.remove(slug, opts);
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
    this.writtenAt.set(slug, ++this.writes);
    const read = await this.backing.read(slug).catch(() => ({}) as Awaited<ReturnType<CredentialStore['read']>>);
    if (read.credential) this.values.set(slug, read.credential);
    else this.values.delete(slug);
    if (read.storedProblem) this.problems.set(slug, read.storedProblem);
    else this.problems.delete(slug);
  }
}
