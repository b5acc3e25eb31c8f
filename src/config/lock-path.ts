/**
 * Where the lock of a state file (config.json, credentials.json, tool-keys.json) is taken. Two
 * state dirs may link the same file (one dotfiles repo behind the real state dir and a second
 * `SVC_PROXY_HOME`): locks beside each link would not keep their writes apart, so a link's lock
 * goes beside its target, where the write lands.
 */
import { constants } from 'node:fs';
import { access, lstat, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * `besideLink` for a plain file, one not there yet, or a link to nothing (its read says so). A
 * target in a folder this user cannot write in (home-manager's /nix/store) cannot be written
 * either — the atomic write's temp file goes there — so no write needs keeping apart: the lock
 * stays beside the link, and re-reading the file still works.
 */
export async function lockPathFor(file: string, besideLink = `${file}.lock`): Promise<string> {
  try {
    if (!(await lstat(file)).isSymbolicLink()) return besideLink;
    const target = await realpath(file);
    await access(dirname(target), constants.W_OK);
    return `${target}.lock`;
  } catch {
    return besideLink;
  }
}
