/** `svc-proxy stop` — graceful: in-flight requests finish or are closed within the drain timeout. */
import type { Command } from 'commander';
import { drainBudget } from '../daemon-control.js';
import type { CliContext } from '../io.js';
import { stoppedSentence } from '../stop-wording.js';
import { stopDaemonOf } from '../daemon-of.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('stop')
    .description('Stop the daemon gracefully (in-flight requests get settings.drainTimeoutMs to finish)')
    .option('--json', 'print the result as JSON')
    .action(async (flags: { json?: boolean }) => {
      const result = await stopDaemonOf(ctx, await drainBudget(ctx));
      if (flags.json) {
        ctx.json(result ? { stopped: true, pid: result.pid, forced: result.forced } : { stopped: false, running: false });
        return;
      }
      ctx.out(result ? stoppedSentence(result) : 'svc-proxy is not running.');
    });
}
