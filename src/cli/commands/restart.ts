/** `svc-proxy restart` — stop (if running), then start in the background. */
import type { Command } from 'commander';
import type { CliContext } from '../io.js';
import { ensureDaemon, printBaseUrls, warnIfExposed } from '../daemon-control.js';
import { parsePort } from '../parse-options.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('restart')
    .description('Stop the daemon if it runs, then start it in the background')
    .option('--port <port>', 'port to listen on', parsePort)
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .action(async (flags: { port?: number; host?: string }) => {
      warnIfExposed(ctx, flags.host);
      const { stopDaemon } = await import('../../daemon/control.js');
      const stopped = await stopDaemon(ctx.paths());
      if (stopped) ctx.out(`stopped (pid ${stopped.pid})`);
      const { daemon } = await ensureDaemon(ctx, { port: flags.port, host: flags.host });
      ctx.out(`svc-proxy started (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}`);
      printBaseUrls(ctx, daemon.host, daemon.port);
    });
}
