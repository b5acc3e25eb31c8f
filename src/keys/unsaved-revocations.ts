/**
 * Revocations put in force while config.json could not be written (an invalid hand edit, the file
 * moved away). A leaked key must stop when it is revoked, not once the file is repaired: the daemon
 * refuses it at once and ends its requests, keeps the revocation here, and writes it as soon as the
 * file can be written again. Until then a restart would bring the key back; the answer says so.
 */
import { ConfigFileError } from '../config/errors.js';
import type { ConfigStore } from '../config/store.js';
import { findKey, revokeKey, type RevokedKey } from './operations.js';

export interface RevocationResult extends RevokedKey {
  /** False when config.json could not be written: in force in the daemon, not yet saved. */
  saved: boolean;
  /** Why it could not be saved. */
  unsavedBecause?: string;
}

export class UnsavedRevocations {
  private readonly ids = new Set<string>();

  /** Keys refused though config.json does not say so yet. */
  withheld(): ReadonlySet<string> {
    return this.ids;
  }

  /** Revoke through config.json; when it cannot be written, in memory (`onHeld` applies it). */
  async revoke(store: ConfigStore, ref: unknown, onHeld: () => void): Promise<RevocationResult> {
    try {
      return { ...(await revokeKey(store, ref)), saved: true };
    } catch (err) {
      if (!(err instanceof ConfigFileError) || typeof ref !== 'string') throw err;
      // the configuration in force is the last good one: the key is looked up there
      const record = findKey(store.current(), ref.trim());
      if (!record || record.revoked) throw err;
      const revoked = new Date().toISOString();
      this.ids.add(record.id);
      onHeld();
      return { id: record.id, name: record.name, revoked, alreadyRevoked: false, saved: false, unsavedBecause: err.message };
    }
  }

  /** Write the held revocations once config.json can be written; true when none is left. */
  async save(store: ConfigStore): Promise<boolean> {
    if (this.ids.size === 0) return true;
    try {
      await store.update((config) => {
        for (const k of config.keys) if (this.ids.has(k.id) && !k.revoked) k.revoked = new Date().toISOString();
      });
    } catch {
      return false; // still not writable: kept for the next change
    }
    this.ids.clear();
    return true;
  }
}
