/**
 * `doctor`: the state directory and the files in it that hold secrets are their owner's only, as
 * ssh wants of a private key. One that is not is a warning with the chmod that puts it right, not a
 * failure: everything still works. Not checked: config.json (service keys only as SHA-256 hashes of
 * random keys, headers may not carry auth), daemon.json, daemon.log and the request log, whose
 * bodies (logBodies) the 0700 directory keeps from others.
 */
import { realpath, stat } from 'node:fs/promises';
import type { StatePaths } from '../../config/paths.js';
import { chmodCommand, octalMode, OWNER_ONLY_DIR, OWNER_ONLY_FILE, openToOthers } from '../../config/private-mode.js';
import { savedKeysPath } from '../tools/saved-keys.js';
import type { Finding } from './findings.js';

/** The permission bits (a link's target's), or undefined when there is nothing there. */
async function modeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o777;
  } catch {
    return undefined;
  }
}

export async function privateFileFindings(paths: StatePaths, platform: NodeJS.Platform = process.platform): Promise<Finding[]> {
  // Windows keeps access in ACLs; the mode bits Node reports there say nothing about other users
  if (platform === 'win32') return [];
  const dirMode = await modeOf(paths.dir);
  if (dirMode === undefined) return [];
  const out: Finding[] = [];
  if (openToOthers(dirMode)) {
    out.push({ check: 'state directory', mark: 'warn', text: `${paths.dir} can be entered by group or others (${octalMode(dirMode)}); it holds secrets`, fix: chmodCommand(paths.dir, OWNER_ONLY_DIR) });
  }
  const secrets = [
    { file: paths.credentialsFile, holds: 'provider credentials' },
    { file: savedKeysPath(paths), holds: 'service keys' },
    { file: paths.adminToken, holds: 'the admin API token' },
  ];
  for (const { file, holds } of secrets) {
    const mode = await modeOf(file);
    if (mode === undefined || !openToOthers(mode)) continue;
    const target = await realpath(file).catch(() => file);
    const where = target === file ? file : `${file} (a link to ${target})`;
    out.push({ check: 'state files', mark: 'warn', text: `${where} can be read by group or others (${octalMode(mode)}); it holds ${holds}`, fix: chmodCommand(target, OWNER_ONLY_FILE) });
  }
  if (out.length === 0) out.push({ check: 'state files', mark: 'ok', text: `${paths.dir} and the secrets in it are this user's only` });
  return out;
}
