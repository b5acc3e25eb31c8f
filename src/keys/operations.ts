/**
 * Service-key management, implemented once and used by both the admin API (daemon running) and the
 * CLI's offline path (editing config.json under its lock).
 */
import { OperationError } from '../config/errors.js';
import type { Config, ServiceKeyRecord } from '../config/schema.js';
import type { ConfigStore } from '../config/store.js';
import { displayPrefix, generateServiceKey, hashServiceKey, newKeyId } from './format.js';

export interface KeyInfo {
  id: string;
  name: string;
  /** Display prefix, e.g. "sk-svc-proxy-Ab3d" — never the key. */
  prefix: string;
  created: string;
  lastUsed: string | null;
  state: 'active' | 'revoked';
  revoked: string | null;
}

/** Returned once, at creation: the only time the full key exists outside the client. */
export interface CreatedKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  created: string;
}

export interface RevokedKey {
  id: string;
  name: string;
  revoked: string;
  alreadyRevoked: boolean;
}

const MAX_NAME = 64;

export function validateKeyName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new OperationError(400, 'invalid_key_name', 'A key needs a name (e.g. --name laptop-claude).');
  const name = raw.trim();
  if (name.length > MAX_NAME) throw new OperationError(400, 'invalid_key_name', `Key names are at most ${MAX_NAME} characters.`);
  if (/[\p{Cc}\p{Cf}]/u.test(name)) throw new OperationError(400, 'invalid_key_name', 'Key names cannot contain control characters.');
  // a lone surrogate: text cut inside an emoji (or another character past U+FFFF); no terminal can show it
  if (/\p{Cs}/u.test(name)) throw new OperationError(400, 'invalid_key_name', 'Key name holds half of a character (a lone UTF-16 surrogate, e.g. an emoji cut in two); type the name again.');
  // `key revoke` takes an id or a name: a name shaped like an id could name another key
  if (/^key_[0-9A-Za-z]{10}$/.test(name)) throw new OperationError(400, 'invalid_key_name', `"${name}" has the shape of a key id (key_…), which key revoke would read as one; pick another name.`);
  return name;
}

export async function createKey(store: ConfigStore, rawName: unknown): Promise<CreatedKey> {
  const name = validateKeyName(rawName);
  const key = generateServiceKey();
  const record: ServiceKeyRecord = {
    id: newKeyId(),
    name,
    hash: hashServiceKey(key),
    prefix: displayPrefix(key),
    created: new Date().toISOString(),
    lastUsed: null,
    revoked: null,
  };
  await store.update((config) => {
    if (config.keys.some((k) => !k.revoked && k.name === name)) {
      throw new OperationError(409, 'key_name_taken', `An active key named "${name}" already exists; pick another name or revoke that one first.`);
    }
    config.keys.push(record);
  });
  return { id: record.id, name, key, prefix: record.prefix, created: record.created };
}

/** Keys for display. `pendingLastUsed` supplies newer in-memory times from the daemon. */
export function listKeys(config: Config, pendingLastUsed?: (id: string) => number | undefined): KeyInfo[] {
  return config.keys.map((k) => {
    const pending = pendingLastUsed?.(k.id);
    const lastUsed = pending !== undefined ? new Date(pending).toISOString() : k.lastUsed;
    return {
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      created: k.created,
      lastUsed,
      state: k.revoked ? 'revoked' : 'active',
      revoked: k.revoked,
    };
  });
}

/** Find a key by id, else by name (an active key wins over revoked ones of the same name). */
export function findKey(config: Config, ref: string): ServiceKeyRecord | undefined {
  const byId = config.keys.find((k) => k.id === ref);
  if (byId) return byId;
  const named = config.keys.filter((k) => k.name === ref);
  return named.find((k) => !k.revoked) ?? named[named.length - 1];
}

export async function revokeKey(store: ConfigStore, ref: unknown): Promise<RevokedKey> {
  if (typeof ref !== 'string' || ref.trim() === '') throw new OperationError(400, 'invalid_argument', 'Name the key to revoke, by id or name.');
  const wanted = ref.trim();
  return store.update((config) => {
    const record = findKey(config, wanted);
    if (!record) throw new OperationError(404, 'key_not_found', `No key with id or name "${wanted}". See: svc-proxy key list`);
    if (record.revoked) return { id: record.id, name: record.name, revoked: record.revoked, alreadyRevoked: true };
    record.revoked = new Date().toISOString();
    return { id: record.id, name: record.name, revoked: record.revoked, alreadyRevoked: false };
  });
}

/** Write a batch of last-used times (key id -> epoch ms); never moves a time backwards. */
export async function writeLastUsed(store: ConfigStore, batch: Map<string, number>): Promise<void> {
  if (batch.size === 0) return;
  await store.update((config) => {
    for (const k of config.keys) {
      const time = batch.get(k.id);
      if (time === undefined) continue;
      const iso = new Date(time).toISOString();
      if (!k.lastUsed || k.lastUsed < iso) k.lastUsed = iso;
    }
  });
}
