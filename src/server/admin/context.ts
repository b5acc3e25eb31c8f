/**
 * What the admin API's resource modules get from the daemon. Add a field here (and fill it in
 * src/daemon/runtime.ts) when a new module needs another service.
 */
import type { RevocationResult } from '../../keys/unsaved-revocations.js';
import type { Config } from '../../config/schema.js';
import type { ConfigStore } from '../../config/store.js';
import type { KeyVerifier } from '../../keys/verifier.js';
import type { RequestLog } from '../../log/writer.js';
import type { CredentialCache } from '../../secrets/cache.js';
import type { KeychainStatus } from '../../secrets/keychain.js';
import type { ProxyStatus } from '../../providers/upstream-proxy.js';
import type { StatedControls } from '../../providers/stated-controls.js';

export interface ConfigProblem {
  message: string;
  /** ISO time the problem was noticed. */
  at: string;
}

export interface DaemonInfo {
  pid: number;
  version: string;
  host: string;
  port: number;
  startedAt: Date;
  stateDir: string;
}

export interface MemoryStatus {
  rssMb: number;
  heapUsedMb: number;
  /** Full collections run after a busy spell (src/daemon/idle-collector.ts). */
  idleCollections: number;
  /** C-heap trims after them; null where the native helper is not built (src/daemon/malloc-trim.ts). */
  idleTrims: number | null;
  /** Request bodies held now, all requests together, and their budget (settings.bodyBudgetBytes). */
  requestBodyBytes: number;
  requestBodyBudgetBytes: number;
}

export interface ReloadOutcome {
  /** The file differed from what the daemon had. */
  changed: boolean;
  config: Config;
}

export interface AdminContext {
  store: ConfigStore;
  keys: KeyVerifier;
  credentials: CredentialCache;
  /** The request log: ring + files + live feed. */
  log: RequestLog;
  daemon: DaemonInfo;
  /** The last hand edit of config.json that could not be used (null when the file is fine). */
  configProblem(): ConfigProblem | null;
  keychain(): KeychainStatus;
  /** Resident and heap memory now, and how often the idle collector ran. */
  memory(): MemoryStatus;
  /** The outbound proxy upstream calls go through (no credentials); undefined when unknown. */
  upstreamProxy?(): ProxyStatus | undefined;
  /** Where the reasoning controls the lists state are kept for requests (the proxy's store); absent: nowhere. */
  statedControls?: StatedControls;
  /** Re-read config.json now. Throws ConfigFileError (the last good config stays in force). */
  reloadConfig(): Promise<ReloadOutcome>;
  /** Revoke a service key (by id or name); in force at once, saved when config.json can be written (unsaved-revocations.ts). */
  revokeKey(ref: unknown): Promise<RevocationResult>;
  /** Begin a graceful stop (after the current response is sent). */
  requestShutdown(): void;
}
