/**
 * `svc-proxy restart` — stop (if running), then start in the background; where a login service
 * runs the daemon of this state dir (and no --port or --host asks for another), through it.
 */
import type { Command } from 'commander';
import { CliError, type CliContext } from '../io.js';
import { ensureDaemon, printBaseUrls, warnIfExposed } from '../daemon-control.js';
import { parsePort } from '../parse-options.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('restart')
    .description('Stop the daemon if it runs, then start it in the background')
    .option('--port <port>', 'port to listen on (0 = any free port)', parsePort)
    .option('--host <address>', 'address to listen on (default 127.0.0.1)')
    .action(async (flags: { port?: number; host?: string }) => {
      warnIfExposed(ctx, flags.host);
      if (flags.port === undefined && flags.host === undefined) {
        const [{ restartThroughService }, { ServiceCommandError }] = await Promise.all([import('../service/service-restart.js'), import('../service/service-manager.js')]);
        try {
          const restarted = await restartThroughService(ctx);
          if (restarted) {
            if (!restarted.daemon) throw new CliError(`The login service (${restarted.title}) was restarted, but its daemon did not answer in time; see \`svc-proxy service status\` and ${ctx.paths().daemonLog}.`);
            if (restarted.before !== undefined) ctx.out(`stopped (pid ${restarted.before})`);
            ctx.out(`svc-proxy started (pid ${restarted.daemon.pid}) on ${restarted.daemon.host}:${restarted.daemon.port} by its login service`);
            printBaseUrls(ctx, restarted.daemon.host, restarted.daemon.port);
            return;
          }
        } catch (err) {
          if (!(err instanceof ServiceCommandError)) throw err;
          ctx.err(`note: the login service could not be restarted (${err.message}); restarting the daemon by hand.`);
        }
      }
      const { stopDaemon } = await import('../../daemon/control.js');
      const stopped = await stopDaemon(ctx.paths());
      if (stopped) ctx.out(`stopped (pid ${stopped.pid})`);
      const { daemon } = await ensureDaemon(ctx, { port: flags.port, host: flags.host });
      ctx.out(`svc-proxy started (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}`);
      printBaseUrls(ctx, daemon.host, daemon.port);
    });
}
