/**
 * Service keys svc-proxy created for tools (`svc-proxy env|run <tool>` without a key), kept so the
 * next `env`/`run` for the same tool reuses them: config.json holds only hashes, so a key that
 * is not saved somewhere can never be printed again. The file lives in the state dir (0600, like
 * the admin token beside it, which is the stronger secret) and holds nothing but these keys.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../config/atomic-write.js';
import { withFileLock } from '../../config/file-lock.js';
import { lockPathFor } from '../../config/lock-path.js';
import { ensureStateDir, type StatePaths } from '../../config/paths.js';
import { openFileWarning, OWNER_ONLY_FILE, openToOthers, tightenedMessage } from '../../config/private-mode.js';
import { toolKeysUnwritable } from './tool-keys-unwritable.js';

export interface SavedKey {
  id: string;
  name: string;
  key: string;
}

interface SavedKeysFile {
  version: 1;
  /** Tool id → the key last created for it. */
  tools: Record<string, SavedKey>;
}

export function savedKeysPath(paths: StatePaths): string {
  return join(paths.dir, 'tool-keys.json');
}

function isSavedKey(v: unknown): v is SavedKey {
  const o = v as Partial<SavedKey> | null;
  return typeof o === 'object' && o !== null && typeof o.id === 'string' && typeof o.name === 'string' && typeof o.key === 'string';
}

const HOLDS = 'service keys';

/** The file's text, and what to say when group or others can read it (as ssh of a private key: warned of, not refused). */
async function readText(file: string): Promise<{ text: string; openWarning?: string }> {
  const handle = await open(file, 'r');
  try {
    const mode = (await handle.stat()).mode & 0o777;
    const text = await handle.readFile('utf8');
    if (!openToOthers(mode)) return { text };
    return { text, openWarning: openFileWarning(file, mode, HOLDS) };
  } finally {
    await handle.close();
  }
}

/**
 * The saved keys; a missing or unreadable file is an empty list (a fresh key is made instead).
 * `warn` hears of a file group or others can read: the chmod to run.
 */
export async function readSavedKeys(paths: StatePaths, warn?: (message: string) => void): Promise<Record<string, SavedKey>> {
  let text: string;
  try {
    const read = await readText(savedKeysPath(paths));
    if (read.openWarning !== undefined) warn?.(read.openWarning);
    text = read.text;
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as Partial<SavedKeysFile>;
    const out: Record<string, SavedKey> = Object.create(null) as Record<string, SavedKey>;
    for (const [tool, entry] of Object.entries(parsed.tools ?? {})) if (isSavedKey(entry)) out[tool] = entry;
    return out;
  } catch {
    return {};
  }
}

/** Returns what to tell the user when the file (or a link's target) was open to others and is 0600 now. */
export async function saveToolKey(paths: StatePaths, tool: string, entry: SavedKey): Promise<string | undefined> {
  await ensureStateDir(paths.dir);
  const file = savedKeysPath(paths);
  // beside a link's target, so state dirs linking one file keep each other's keys (lock-path.ts)
  return withFileLock(await lockPathFor(file), async () => {
    // no warning for this read: the write makes the file 0600 and says so
    const tools = await readSavedKeys(paths);
    tools[tool] = entry;
    const body: SavedKeysFile = { version: 1, tools };
    const text = `${JSON.stringify(body, null, 2)}\n`;
    const written = await writeFileAtomic(file, text, { mode: OWNER_ONLY_FILE, secret: true }).catch((err: unknown) => {
      throw toolKeysUnwritable(file, err);
    });
    return tightenedMessage(file, written, HOLDS);
  });
}
