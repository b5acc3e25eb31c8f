/**
 * `svc-proxy tui` (alias `ui`) — the terminal UI: live request log, keys, groups, providers, stats.
 * Starts the daemon first when none runs (and says so). React and Ink load only here.
 */
import type { Command } from 'commander';
import { ensureDaemon } from '../daemon-control.js';
import { CliError, type CliContext } from '../io.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('tui')
    .alias('ui')
    .description('Terminal UI: live request log, service keys, model groups, providers, stats (starts the daemon if needed)')
    .action(async () => {
      const stdout = ctx.io.stdout as { isTTY?: boolean };
      if (ctx.io.stdin.isTTY !== true || stdout.isTTY !== true) {
        throw new CliError('The TUI needs an interactive terminal. In scripts and pipes, follow the request log with: svc-proxy logs --follow', 2, { code: 'not_a_terminal' });
      }
      const { daemon, alreadyRunning } = await ensureDaemon(ctx);
      if (!alreadyRunning) ctx.err(`No daemon was running: started one (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}.`);
      // The status line already names the daemon's address and pid.
      const notice = alreadyRunning ? undefined : 'No daemon was running: started it.';
      const { runTui } = await import('../../tui/run.js');
      await runTui({
        paths: ctx.paths(),
        env: ctx.io.env,
        stdin: ctx.io.stdin as NodeJS.ReadStream,
        stdout: ctx.io.stdout as NodeJS.WriteStream,
        notice,
      });
    });
}
