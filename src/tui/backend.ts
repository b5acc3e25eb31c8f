/**
 * Everything the TUI asks of the daemon, built on the CLI's own admin client: the management
 * operations (AdminClient itself), groups, log queries and stats, and the live log feed. The TUI
 * never builds an admin request of its own for an operation the CLI has.
 */
import { AdminApiError, type AdminClient } from '../cli/admin-client.js';
import { groupsViaDaemon, type GroupManagement } from '../cli/group-management.js';
import { logsViaDaemon, type LogAccess } from '../cli/log-access.js';
import { followLog, type FollowEnd } from '../cli/log-follow.js';
import type { Management } from '../cli/management.js';
import { DaemonUnreachableError } from '../daemon/http-json.js';
import type { RequestLogEntry } from '../log/entry.js';
import type { ListFailureRead } from '../providers/model-list-failure.js';
import type { DaemonStatus } from '../server/admin/status.js';

export interface ModelCounts {
  /** Models listed per provider/endpoint/local slug (absent: none listed or the list failed). */
  counts: Record<string, number>;
  /** Why a slug's list failed (a refused key, no answer in time …) and its code, as `svc-proxy models` says it. */
  failed: Record<string, ListFailureRead>;
}

export interface TuiBackend {
  /** http://host:port of the daemon. */
  readonly origin: string;
  readonly pid: number;
  status(): Promise<DaemonStatus>;
  readonly management: Management;
  readonly groups: GroupManagement;
  readonly logs: LogAccess;
  /** The live request log (SSE); resolves how it ended. */
  follow(params: URLSearchParams, onEntry: (e: RequestLogEntry) => void, signal: AbortSignal): Promise<FollowEnd>;
  modelCounts(): Promise<ModelCounts>;
}

/** Errors that mean "the daemon is gone (or was replaced)", not "the operation failed". */
export function isDaemonLoss(err: unknown): boolean {
  if (err instanceof DaemonUnreachableError) return true;
  // A daemon restarted on the same port has a new admin token.
  return err instanceof AdminApiError && err.status === 401 && (err.code === 'invalid_admin_token' || err.code === 'missing_admin_token');
}

/**
 * The backend over one admin client. `onLoss` hears about every call that failed because the
 * daemon went away (all calls go through `client.request`, so one wrapper sees them all).
 */
export function backendFor(client: AdminClient, onLoss: (err: unknown) => void = () => {}): TuiBackend {
  const request = client.request.bind(client);
  client.request = (async (method: string, path: string, body?: unknown, timeoutMs?: number) => {
    try {
      return await request(method, path, body, timeoutMs);
    } catch (err) {
      if (isDaemonLoss(err)) onLoss(err);
      throw err;
    }
  }) as AdminClient['request'];
  return {
    origin: client.origin,
    pid: client.daemon.pid,
    status: () => client.status(),
    management: client,
    groups: groupsViaDaemon(client),
    logs: logsViaDaemon(client),
    follow: (params, onEntry, signal) => followLog(client, params, onEntry, signal),
    modelCounts: async () => {
      const answer = await client.models(undefined, 15_000);
      return { counts: answer.counts, failed: answer.failed };
    },
  };
}
