/**
 * State files reached through a symlink (a dotfile manager — GNU stow, chezmoi, home-manager —
 * links config.json into a dotfiles repo). A write goes to the link's target, so the link stays
 * and the user's repo sees the change; a link whose target is gone is refused by name, not
 * reported as a missing file (which would read as "no config: use the defaults").
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';

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

/** Where a write of `path` lands. */
export interface WriteTarget {
  /** The file to replace: the path itself, or the link's target. */
  file: string;
  /** `path` is a symlink: its target keeps its own mode. */
  linked: boolean;
  /** The mode the file has now (permission bits); undefined while there is none. */
  mode?: number;
}

/**
 * Synchronous so that the async and the sync atomic write share it (the sync one writes daemon.json
 * before the first request is answered): two or three metadata calls, next to a write that fsyncs.
 */
export function writeTarget(path: string): WriteTarget {
  let own;
  try {
    own = lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file: path, linked: false };
    throw err;
  }
  if (!own.isSymbolicLink()) return { file: path, linked: false, mode: own.mode & 0o777 };
  try {
    const file = realpathSync(path);
    return { file, linked: true, mode: statSync(file).mode & 0o777 };
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
