/**
 * Where svc-proxy keeps its state: one directory, resolved the same way by the CLI and the daemon.
 */
import { mkdir, chmod } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

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

/** Create the state directory (0700). An existing one is tightened to 0700: it holds secrets. */
export async function ensureStateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') await chmod(dir, 0o700);
}
