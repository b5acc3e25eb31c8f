/**
 * State files reached through a symlink (a dotfile manager — GNU stow, chezmoi, home-manager —
 * links config.json into a dotfiles repo). A write goes to the link's target, so the link stays
 * and the user's repo sees the change; a link whose target is gone is refused by name, not
 * reported as a missing file (which would read as "no config: use the defaults").
 */
import { lstat, realpath, stat } from 'node:fs/promises';

/** A state file is a symlink whose target does not exist. */
export class DanglingLinkError extends Error {
  readonly code = 'dangling_symlink';
  constructor(readonly link: string) {
    super(danglingLinkMessage(link));
    this.name = 'DanglingLinkError';
  }
}

export function danglingLinkMessage(link: string): string {
  return `${link} is a symbolic link to a file that does not exist (moved dotfiles?). Point the link at the file, or remove the link to start from a new file.`;
}

/** Where a write of `path` lands: the link's target (with its mode) or the path itself. */
export async function writeTarget(path: string): Promise<{ file: string; mode?: number }> {
  try {
    if (!(await lstat(path)).isSymbolicLink()) return { file: path };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file: path };
    throw err;
  }
  try {
    const file = await realpath(path);
    return { file, mode: (await stat(file)).mode & 0o777 };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') throw new DanglingLinkError(path);
    throw err;
  }
}

/** After a read failed with ENOENT: is `path` a link to nothing (rather than absent)? */
export async function isDanglingLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}
