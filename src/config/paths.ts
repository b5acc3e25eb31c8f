/**
 * Where svc-proxy keeps its state: one directory, resolved the same way by the CLI and the daemon.
 */
import { mkdir, chmod, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { madePrivateMessage, OWNER_ONLY_DIR, openToOthers } from './private-mode.js';

export interface StatePaths {
  dir: string;
  config: string;
  configBackup: string;
  configLock: string;
  /** Random token that authenticates the CLI/TUI to the daemon's admin API (0600). */
  adminToken: string;
  /** Plain pid of the running daemon, for service managers and humans. */
  pidFile: string;
  /** JSON: pid, host, port, start time and version of the running daemon. */
  runtimeFile: string;
  /** The daemon's own stdout/stderr (not the request log). */
  daemonLog: string;
  /** Credentials stored with --insecure-storage when no keychain is usable (0600). */
  credentialsFile: string;
  /** Which custom Messages endpoint issued each thinking signature relayed (hashes only, 0600). */
  proofIssuers: string;
}

type Env = Record<string, string | undefined>;

export function resolveStateDir(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env.SVC_PROXY_HOME) return env.SVC_PROXY_HOME;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'svc-proxy');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'svc-proxy');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'svc-proxy');
}

export function statePaths(dir: string): StatePaths {
  return {
    dir,
    config: join(dir, 'config.json'),
    configBackup: join(dir, 'config.json.bak'),
    configLock: join(dir, 'config.json.lock'),
    adminToken: join(dir, 'admin-token'),
    pidFile: join(dir, 'daemon.pid'),
    runtimeFile: join(dir, 'daemon.json'),
    daemonLog: join(dir, 'daemon.log'),
    credentialsFile: join(dir, 'credentials.json'),
    proofIssuers: join(dir, 'proof-issuers.json'),
  };
}

/**
 * Create the state directory (0700). An existing one is tightened to 0700: it holds secrets;
 * `notice` hears it when group or others could enter it before (daemon.log, the CLI's stderr).
 */
export async function ensureStateDir(dir: string, notice?: (message: string) => void): Promise<void> {
  let before: number | undefined;
  try {
    const made = await mkdir(dir, { recursive: true, mode: OWNER_ONLY_DIR });
    if (process.platform === 'win32') return;
    if (made === undefined) before = (await stat(dir)).mode & 0o777;
    await chmod(dir, OWNER_ONLY_DIR);
  } catch (err) {
    throw stateDirError(dir, err as NodeJS.ErrnoException);
  }
  if (before !== undefined && openToOthers(before)) notice?.(madePrivateMessage(dir, before, 'secrets', OWNER_ONLY_DIR));
}

/** The state dir cannot be made or used: what is in the way, and how to choose another. */
function stateDirError(dir: string, err: NodeJS.ErrnoException): Error {
  const why: Record<string, string> = {
    EEXIST: 'a file (not a folder) is in the way',
    ENOTDIR: 'part of the path is a file, not a folder',
    EROFS: 'it is on a read-only file system',
    EACCES: 'this user may not write there',
    EPERM: 'this user may not write there',
    ENOSPC: 'the disk is full',
  };
  const reason = (err.code && why[err.code]) ?? err.message;
  const out = new Error(`The state directory ${dir} cannot be used: ${reason}. Set SVC_PROXY_HOME to a folder of your own (or fix that path).`);
  (out as NodeJS.ErrnoException).code = err.code;
  return out;
}
