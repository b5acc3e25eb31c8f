/**
 * Which service key `svc-proxy env|run <tool>` hands to the tool. config.json stores only key
 * hashes, so a key can be printed only if the user supplies it or svc-proxy saved it when it
 * created it. In order:
 *   1. `--key sk-svc-proxy-…`: that key (it must be active).
 *      `--key <name or id>`: the key svc-proxy saved under that name for a tool.
 *   2. `--new-key [--key-name NAME]`: a new key (default name: the tool's id, then -2, -3 …), saved
 *      as the tool's key.
 *   3. `SVC_PROXY_KEY` in the environment: that key (it must be active).
 *   4. The key saved for this tool, while it is active.
 *   5. Otherwise a new key named after the tool, saved as the tool's key.
 */
import { ensureStateDir } from '../../config/paths.js';
import { OperationError } from '../../config/errors.js';
import type { Config, ServiceKeyRecord } from '../../config/schema.js';
import { hashServiceKey, KEY_PREFIX } from '../../keys/format.js';
import { CliError, type CliContext } from '../io.js';
import { openManagement, type Management } from '../management.js';
import { readSavedKeys, saveToolKey, savedKeysPath, type SavedKey } from './saved-keys.js';
import { checkToolKeysSavable } from './tool-keys-savable.js';
import type { ToolProfile } from './types.js';

export type KeySource = 'flag' | 'saved' | 'new' | 'env' | 'created';

export interface ResolvedKey {
  key: string;
  id: string;
  name: string;
  source: KeySource;
}

export interface KeyRequest {
  /** `--key`: a full key, or the name or id of a key svc-proxy saved. */
  key?: string;
  /** `--new-key`: make a new key. */
  newKey?: boolean;
  /** `--key-name`: the name for the new key. */
  keyName?: string;
}

function activeRecordFor(config: Config, key: string): ServiceKeyRecord | undefined {
  const hash = hashServiceKey(key);
  return config.keys.find((k) => k.hash === hash && !k.revoked);
}

function requireActive(config: Config, key: string, from: string): ServiceKeyRecord {
  if (!key.startsWith(KEY_PREFIX)) throw new CliError(`${from} is not a service key (they start with ${KEY_PREFIX}).`, 2, { code: 'not_a_service_key' });
  const record = activeRecordFor(config, key);
  if (!record) throw new CliError(`${from} is not an active key of this svc-proxy (unknown or revoked). See: svc-proxy key list`, 1, { code: 'unknown_key' });
  return record;
}

/** A saved key, by tool, key name or key id, that is still active. */
function findSaved(config: Config, saved: Record<string, SavedKey>, ref: string): SavedKey | undefined {
  return Object.values(saved).find((s) => (s.name === ref || s.id === ref) && activeRecordFor(config, s.key)?.id === s.id);
}

/** The tool's id, or with -2, -3 … when an active key already has that name. */
function freeName(config: Config, base: string): string {
  const taken = new Set(config.keys.filter((k) => !k.revoked).map((k) => k.name));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

async function create(ctx: CliContext, tool: ToolProfile, name: string): Promise<SavedKey> {
  // Without a daemon the key is written straight to config.json, whose directory may not exist yet.
  await ensureStateDir(ctx.paths().dir, ctx.warn);
  // before the key is made, so a file that cannot take it leaves no key to revoke
  await checkToolKeysSavable(savedKeysPath(ctx.paths()));
  const management = await openManagement(ctx);
  const created = await management.createKey(name);
  const entry = { id: created.id, name: created.name, key: created.key };
  let tightened: string | undefined;
  try {
    tightened = await saveToolKey(ctx.paths(), tool.id, entry);
  } catch (err) {
    await revokeUnsaved(ctx, management, entry);
    throw err;
  }
  if (tightened) ctx.warn(tightened);
  ctx.err(`svc-proxy: created key "${entry.name}" (${entry.id}) for ${tool.title}, saved in ${savedKeysPath(ctx.paths())} for the next time. Revoke it with: svc-proxy key revoke ${entry.id}`);
  return entry;
}

/**
 * A key no file holds can never be printed again, and the next run would make another beside it:
 * taken back through the management that made it. The save's error is the one reported after.
 * Rare: the path was checked before the key was made; this is for one that changed meanwhile.
 */
async function revokeUnsaved(ctx: CliContext, management: Management, entry: SavedKey): Promise<void> {
  try {
    await management.revokeKey(entry.id);
    ctx.err(`svc-proxy: created key "${entry.name}" (${entry.id}) but could not save it in ${savedKeysPath(ctx.paths())}, so it is revoked again. Why it could not be saved:`);
  } catch (revokeError) {
    const reason = revokeError instanceof Error ? revokeError.message : String(revokeError);
    ctx.err(`svc-proxy: created key "${entry.name}" (${entry.id}) but could not save it in ${savedKeysPath(ctx.paths())}, nor revoke it (${reason}). Revoke it with: svc-proxy key revoke ${entry.id}. Why it could not be saved:`);
  }
}

export async function resolveKey(ctx: CliContext, tool: ToolProfile, req: KeyRequest): Promise<ResolvedKey> {
  if (req.key !== undefined && req.newKey) throw new CliError('Give either --key or --new-key, not both.', 2, { code: 'conflicting_options' });
  if (req.keyName !== undefined && !req.newKey) throw new CliError('--key-name names the key --new-key creates; add --new-key.', 2, { code: 'missing_option' });
  const { ConfigStore } = await import('../../config/store.js');
  const config = (await ConfigStore.open(ctx.paths())).current();

  if (req.key !== undefined) {
    const ref = req.key.trim();
    if (ref.startsWith(KEY_PREFIX)) {
      const record = requireActive(config, ref, 'The key given with --key');
      return { key: ref, id: record.id, name: record.name, source: 'flag' };
    }
    const saved = findSaved(config, await readSavedKeys(ctx.paths(), ctx.warn), ref);
    if (saved) return { ...saved, source: 'saved' };
    const known = config.keys.some((k) => !k.revoked && (k.name === ref || k.id === ref));
    throw new CliError(
      known
        ? `svc-proxy stores only a hash of key "${ref}", so it cannot print it. Pass the key itself (--key sk-svc-proxy-… or SVC_PROXY_KEY=…), or make a new one with --new-key.`
        : `No active key named "${ref}". See: svc-proxy key list (or make one with --new-key).`,
      1,
      { code: known ? 'key_not_printable' : 'unknown_key' },
    );
  }

  if (req.newKey) {
    const name = req.keyName ?? freeName(config, tool.id);
    return { ...(await create(ctx, tool, name)), source: 'new' };
  }

  const fromEnv = ctx.io.env.SVC_PROXY_KEY?.trim();
  if (fromEnv) {
    const record = requireActive(config, fromEnv, 'SVC_PROXY_KEY');
    return { key: fromEnv, id: record.id, name: record.name, source: 'env' };
  }

  // the read's warning is for a key used as saved: a new key's save makes the file 0600 and says so, in one line
  const heard: string[] = [];
  const saved = (await readSavedKeys(ctx.paths(), (m) => heard.push(m)))[tool.id];
  if (saved && activeRecordFor(config, saved.key)?.id === saved.id) {
    heard.forEach(ctx.warn);
    return { ...saved, source: 'saved' };
  }

  try {
    return { ...(await create(ctx, tool, freeName(config, tool.id))), source: 'created' };
  } catch (err) {
    // Two first runs of a tool at once (two terminals): both found no key, the other one made it.
    if (!(err instanceof OperationError && err.code === 'key_name_taken')) throw err;
    const winner = await savedKeyWithin(ctx, tool, WINNER_SAVE_MS);
    if (winner) return { ...winner, source: 'saved' };
    throw err;
  }
}

/** How long a run that lost the race to create the tool's key waits for the winner to save it. */
const WINNER_SAVE_MS = 2_000;

async function savedKeyWithin(ctx: CliContext, tool: ToolProfile, ms: number): Promise<SavedKey | undefined> {
  const { ConfigStore } = await import('../../config/store.js');
  const deadline = Date.now() + ms;
  for (;;) {
    const saved = (await readSavedKeys(ctx.paths()))[tool.id];
    if (saved) {
      const config = (await ConfigStore.open(ctx.paths())).current();
      if (activeRecordFor(config, saved.key)?.id === saved.id) return saved;
    }
    if (Date.now() >= deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}
