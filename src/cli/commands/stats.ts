/** `svc-proxy stats` — requests, errors, tokens and p50/p95 latency by provider, model or key. */
import type { Command } from 'commander';
import { Option } from 'commander';
import { STATS_BY, type StatsBy } from '../../log/stats.js';
import type { CliContext } from '../io.js';
import { openLogAccess } from '../log-access.js';
import { formatStats, formatTime } from '../log-format.js';
import { addFilterOptions, toQuery, type LogFilterFlags } from './logs.js';

export function register(program: Command, ctx: CliContext): void {
  const cmd = program.command('stats').description('Summary of the request log by provider, model or key: requests, errors, tokens, p50/p95 latency');
  addFilterOptions(cmd, '; default 24h, "all" for every retained file')
    .addOption(new Option('--by <what>', 'group rows by').choices([...STATS_BY]).default('provider'))
    .option('--json', 'print as JSON')
    .action(async (flags: LogFilterFlags & { by: StatsBy; json?: boolean }) => {
      // The last day unless told otherwise; `--since all` covers every retained file.
      const { limit: _limit, ...filter } = toQuery({ ...flags, since: flags.since ?? '24h' });
      const report = await (await openLogAccess(ctx)).stats(filter, flags.by);
      if (flags.json) ctx.json(report);
      else if (report.total.requests === 0) ctx.out(`No requests ${report.since ? `since ${formatTime(report.since)}` : 'in the log'}.`);
      else ctx.out(formatStats(report));
    });
}
