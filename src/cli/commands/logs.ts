/**
 * `svc-proxy logs` — the latest requests as a table (or JSON lines), `--follow` for the live feed.
 * Reads the daemon when one runs (it also holds entries not yet on disk), else the files.
 */
import type { Command } from 'commander';
import type { RequestLogEntry } from '../../log/entry.js';
import { FilterError } from '../../log/filter.js';
import type { LogQuery } from '../../log/query.js';
import { logQueryToParams, parseLogQuery } from '../../log/query-params.js';
import { SinceError } from '../../log/since.js';
import { CliError, type CliContext } from '../io.js';
import { openLogAccess } from '../log-access.js';
import { LogTable } from '../log-format.js';

export interface LogFilterFlags {
  key?: string;
  provider?: string;
  status?: string;
  since?: string;
  group?: string;
}

/** Filter flags shared by `logs` and `stats`; `sinceDefault` is said in the help of --since. */
export function addFilterOptions(cmd: Command, sinceDefault = ''): Command {
  return cmd
    .option('--key <key>', 'only requests made with this service key (id or name)')
    .option('--provider <provider>', 'only requests answered by, or tried on, this provider (or endpoint/local slug)')
    .option('--status <status>', 'status codes or classes, comma-separated: 200, 429, 4xx, 5xx, ok, error')
    .option('--group <slug>', 'only requests to this group base')
    .option('--since <time>', `a duration back from now (30s, 10m, 2h, 7d) or an ISO date/time${sinceDefault}`);
}

/** Bad filter values are usage errors (exit 2). */
export function toQuery(flags: LogFilterFlags & { limit?: string }): LogQuery {
  try {
    return parseLogQuery({ ...flags, base: flags.group });
  } catch (err) {
    if (err instanceof FilterError || err instanceof SinceError) throw new CliError(err.message, 2, { code: err.code });
    throw err;
  }
}

function colourWanted(ctx: CliContext): boolean {
  return (ctx.io.stdout as { isTTY?: boolean }).isTTY === true && !ctx.io.env.NO_COLOR;
}

export function register(program: Command, ctx: CliContext): void {
  const cmd = program.command('logs').description('The request log: latest requests as a table; --follow for live ones, --json for JSON lines');
  addFilterOptions(cmd)
    .option('-n, --limit <n>', 'how many of the latest entries (default 50; with --follow 10)')
    .option('-f, --follow', 'keep printing new requests as they arrive (Ctrl-C to stop); needs the daemon')
    .option('--json', 'one JSON object per line')
    .action(async (flags: LogFilterFlags & { limit?: string; follow?: boolean; json?: boolean }) => {
      const q = toQuery({ ...flags, limit: flags.limit ?? (flags.follow ? '10' : '50') });
      const access = await openLogAccess(ctx);

      if (!flags.follow) {
        const entries = (await access.query(q)).reverse(); // oldest first, like a log file
        if (flags.json) {
          for (const e of entries) ctx.out(JSON.stringify(e));
          return;
        }
        if (entries.length === 0) {
          ctx.out(access.mode === 'offline' ? 'No matching requests in the log files (the daemon is not running).' : 'No matching requests logged yet.');
          return;
        }
        const t = new LogTable(entries, { colour: colourWanted(ctx) });
        ctx.out(t.header());
        for (const e of entries) ctx.out(t.row(e));
        return;
      }

      if (!access.client) throw new CliError('The daemon is not running, so there is nothing to follow. Start it: svc-proxy start', 1, { code: 'daemon_not_running' });
      const { followLog } = await import('../log-follow.js');
      const params = logQueryToParams({ ...q, limit: undefined });
      params.set('recent', String(q.limit));
      const t = new LogTable([], { colour: colourWanted(ctx), minWidths: true });
      if (!flags.json) ctx.out(t.header());
      const print = flags.json ? (e: RequestLogEntry) => ctx.out(JSON.stringify(e)) : (e: RequestLogEntry) => ctx.out(t.row(e));

      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        const end = await followLog(access.client, params, print, stop.signal);
        if (end === 'daemon_stopped') ctx.err('The daemon stopped; no more requests to follow.');
        if (end === 'connection_lost') {
          ctx.err('Lost the connection to the daemon.');
          ctx.exitCode = 1;
        }
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
}
