/**
 * `svc-proxy __complete <kind>…` (hidden): the names a completion script offers from config.json,
 * one a line. Read straight from the file, unvalidated and unlocked: it never starts or waits for
 * the daemon nor touches the keychain, and loads nothing else (it runs at every Tab). A file that
 * cannot be read offers nothing rather than an error in the middle of the command line, and so
 * does one over the cap the daemon reads (no Tab waits on parsing a stray huge file).
 */
import { open } from 'node:fs/promises';
import { resolveStateDir, statePaths } from '../../config/paths.js';
import { CONFIG_SIZE_CAP } from '../../config/size-cap.js';
import { withoutByteOrderMark } from '../../config/byte-order-mark.js';
import type { DynamicKind } from './value-sources.js';

type Entries = Record<string, unknown> | undefined;

interface ConfigNames {
  endpoints?: Entries;
  locals?: Entries;
  groups?: Entries;
  keys?: { id?: unknown; name?: unknown; revoked?: unknown }[];
}

const READERS: Readonly<Record<DynamicKind, (config: ConfigNames) => unknown[]>> = {
  endpoints: (c) => Object.keys(c.endpoints ?? {}),
  locals: (c) => Object.keys(c.locals ?? {}),
  groups: (c) => Object.keys(c.groups ?? {}),
  keys: (c) => activeKeys(c).map((k) => k.name),
  'key-ids': (c) => activeKeys(c).map((k) => k.id),
  'keys-with-revoked': (c) => keyEntries(c).map((k) => k.name),
  'key-ids-with-revoked': (c) => keyEntries(c).map((k) => k.id),
};

type KeyEntry = NonNullable<ConfigNames['keys']>[number];

/** Every key entry, revoked ones too (their requests stay in the log); a hand-broken entry is skipped. */
function keyEntries(config: ConfigNames): KeyEntry[] {
  if (!Array.isArray(config.keys)) return [];
  return config.keys.filter((k: KeyEntry | null): k is KeyEntry => typeof k === 'object' && k !== null);
}

/** A revoked key is no use to env/run, nor to revoke again. */
function activeKeys(config: ConfigNames): KeyEntry[] {
  return keyEntries(config).filter((k) => !k.revoked);
}

export async function completionValues(kinds: readonly string[], env: Record<string, string | undefined>): Promise<string[]> {
  let config: ConfigNames;
  try {
    const text = await readCapped(statePaths(resolveStateDir(env)).config);
    if (text === undefined) return [];
    // as the daemon reads it: a Windows editor's byte-order mark is not content
    const parsed: unknown = JSON.parse(withoutByteOrderMark(text));
    if (typeof parsed !== 'object' || parsed === null) return [];
    config = parsed as ConfigNames;
  } catch {
    return [];
  }
  const names = kinds.flatMap((kind) => (Object.hasOwn(READERS, kind) ? READERS[kind as DynamicKind](config) : []));
  // a name with a space or a line break would come out as two words
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== '' && !/\s/.test(n)))];
}

/** The file's text, or undefined when it is over the cap (its size asked of the open file, not its path). */
async function readCapped(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    if ((await handle.stat()).size > CONFIG_SIZE_CAP) return undefined;
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
