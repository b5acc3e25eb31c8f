/**
 * Reading the request log from the CLI (and the TUI): from the running daemon (its ring holds
 * entries not yet on disk), or straight from the JSONL files when no daemon runs.
 */
import type { RequestLogEntry } from '../log/entry.js';
import type { LogFilter } from '../log/filter.js';
import type { LogQuery } from '../log/query.js';
import { logQueryToParams } from '../log/query-params.js';
import type { StatsBy, StatsReport } from '../log/stats.js';
import type { AdminClient } from './admin-client.js';
import { connectAdmin } from './connect-admin.js';
import type { CliContext } from './io.js';

export interface LogAccess {
  readonly mode: 'daemon' | 'offline';
  /** The daemon, when one runs (needed to follow the live feed). */
  readonly client?: AdminClient;
  /** Latest matching entries, newest first. */
  query(q: LogQuery): Promise<RequestLogEntry[]>;
  stats(filter: LogFilter, by: StatsBy): Promise<StatsReport>;
}

export function logsViaDaemon(client: AdminClient): LogAccess {
  return {
    mode: 'daemon',
    client,
    query: async (q) => (await client.request<{ entries: RequestLogEntry[] }>('GET', `/admin/logs?${logQueryToParams(q)}`)).entries,
    stats: (filter, by) => client.request('GET', `/admin/stats?${logQueryToParams({ ...filter, by })}`),
  };
}

export async function openLogAccess(ctx: CliContext): Promise<LogAccess> {
  const paths = ctx.paths();
  const client = await connectAdmin(ctx);
  if (client) return logsViaDaemon(client);
  const [{ queryLog, statsLog }, { logsDir }] = await Promise.all([import('../log/query.js'), import('../log/paths.js')]);
  const dir = logsDir(paths.dir);
  return {
    mode: 'offline',
    query: (q) => queryLog({ dir }, q),
    stats: (filter, by) => statsLog({ dir }, filter, by),
  };
}
