/**
 * Files that hold secrets are for their owner only, as ssh wants of a private key: 0600 for a
 * file, 0700 for the state directory. Group and others' bits are what makes one "open".
 */
export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_DIR = 0o700;

/**
 * Group or others may read, write or enter it. Never on Windows: access lives in ACLs there, and
 * the mode Node reports (0666, or 0444 read-only) says nothing about other users.
 */
export function openToOthers(mode: number, platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32' && (mode & 0o077) !== 0;
}

/** `0644`, as chmod and ls -l users read a mode. */
export function octalMode(mode: number): string {
  return `0${(mode & 0o777).toString(8).padStart(3, '0')}`;
}

/** The command that makes `path` (a link: its target) its owner's only, quoted for a POSIX shell where needed. */
export function chmodCommand(path: string, mode: number): string {
  const arg = /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
  return `chmod ${(mode & 0o777).toString(8)} ${arg}`;
}

/** What svc-proxy says of a secret's file that group or others can read: warned of, not refused, as ssh does of a private key. */
export function openFileWarning(path: string, mode: number, holds: string): string {
  return `${path} holds ${holds} and can be read by group or others (${octalMode(mode)}): ${chmodCommand(path, OWNER_ONLY_FILE)}`;
}

/** What svc-proxy says after making a secret's file or folder owner-only (daemon.log, or the CLI's stderr). */
export function madePrivateMessage(where: string, from: number, holds: string, now: number): string {
  return `${where} could be read by group or others (${octalMode(from)}); it holds ${holds}, so svc-proxy made it ${octalMode(now)}`;
}

/** The same after a `secret` atomic write; nothing when the file was private already. */
export function tightenedMessage(path: string, written: { file: string; tightenedFrom?: number }, holds: string): string | undefined {
  if (written.tightenedFrom === undefined) return undefined;
  return madePrivateMessage(written.file === path ? path : `${path} (a link to ${written.file})`, written.tightenedFrom, holds, OWNER_ONLY_FILE);
}
