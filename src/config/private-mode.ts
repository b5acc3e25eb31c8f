/**
 * Files that hold secrets are for their owner only, as ssh wants of a private key: 0600 for a
 * file, 0700 for the state directory. Group and others' bits are what makes one "open".
 */
export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_DIR = 0o700;

/** Group or others may read, write or enter it. */
export function openToOthers(mode: number): boolean {
  return (mode & 0o077) !== 0;
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

/** What a write that made a secret's file owner-only says (daemon.log, or the CLI's stderr). */
export function tightenedMessage(path: string, written: { file: string; tightenedFrom?: number }, holds: string): string | undefined {
  if (written.tightenedFrom === undefined) return undefined;
  const where = written.file === path ? path : `${path} (a link to ${written.file})`;
  return `${where} could be read by group or others (${octalMode(written.tightenedFrom)}); it holds ${holds}, so svc-proxy made it ${octalMode(OWNER_ONLY_FILE)}`;
}
