/**
 * The proxy's view of service keys: an in-memory map from SHA-256 hash to key, rebuilt whenever the
 * configuration changes (so a revoke is in effect as soon as it is written), plus last-used times
 * collected in memory and handed out in batches for writing.
 */
import { hash } from 'node:crypto';
import type { ServiceKeyRecord } from '../config/schema.js';

export interface VerifiedKey {
  id: string;
  name: string;
}

interface Entry extends VerifiedKey {
  /** hex SHA-256 */
  hash: string;
}

/** Longer than any real key: refuse without hashing megabytes of header. */
const MAX_KEY_LENGTH = 256;

export class KeyVerifier {
  private byHash = new Map<string, Entry>();
  private readonly lastUsed = new Map<string, number>();

  constructor(keys: readonly ServiceKeyRecord[] = []) {
    this.load(keys);
  }

  /** Replace the set of valid keys (active ones only; `withheld` ids are refused too). */
  load(keys: readonly ServiceKeyRecord[], withheld?: ReadonlySet<string>): void {
    const next = new Map<string, Entry>();
    for (const k of keys) {
      if (k.revoked || withheld?.has(k.id)) continue;
      next.set(k.hash, { id: k.id, name: k.name, hash: k.hash });
    }
    this.byHash = next;
  }

  /** The key's identity, or undefined for an unknown or revoked key. Records the use. */
  verify(presented: string): VerifiedKey | undefined {
    if (presented.length === 0 || presented.length > MAX_KEY_LENGTH) return undefined;
    // One-shot hash (crypto.hash) is several times cheaper than createHash() on this path.
    const digest = hash('sha256', presented, 'hex');
    const entry = this.byHash.get(digest);
    // The map lookup finds the candidate; the constant-time compare is what accepts it.
    if (!entry || !constantTimeEqual(entry.hash, digest)) return undefined;
    this.lastUsed.set(entry.id, Date.now());
    return entry;
  }

  /** Last-used times recorded since the previous call (key id -> epoch ms); clears them. */
  takeLastUsed(): Map<string, number> {
    const batch = new Map(this.lastUsed);
    this.lastUsed.clear();
    return batch;
  }

  /** Put back a batch that could not be written, keeping newer times recorded meanwhile. */
  restoreLastUsed(batch: Map<string, number>): void {
    for (const [id, time] of batch) {
      const newer = this.lastUsed.get(id);
      if (newer === undefined || newer < time) this.lastUsed.set(id, time);
    }
  }

  /** Unflushed last-used time of a key, for listings served from memory. */
  pendingLastUsed(id: string): number | undefined {
    return this.lastUsed.get(id);
  }
}

/** Compare two equal-length ASCII strings without an early exit (exported for its test). */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
