/**
 * `svc-proxy restart` — stop (if running), then start in the background; where a login service
 * runs the daemon of this state dir (and no --port or --host asks for another), through it.
 */
import type { Command } from 'commander';
import { baseUrls } from '../../config/base-urls.js';
import type { DaemonLocation, StopResult } from '../../daemon/control.js';
import { CliError, type CliContext } from '../io.js';
import { drainBudget, ensureDaemon, printBaseUrls, warnIfExposed } from '../daemon-control.js';
import { parsePort } from '../parse-options.js';
import { stoppedSentence } from '../stop-wording.js';
import { stopDaemonOf } from '../daemon-of.js';

interface Restarted {
  daemon: DaemonLocation;
  /** The daemon that was stopped, if one ran. */
  stoppedPid: number | undefined;
  /** Whether the stopped daemon outlived the drain and was killed. */
  forced: boolean;
  byLoginService: boolean;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('restart')
    .description('Stop the daemon if it runs, then start it in the background')
    .option('--port <port>', 'port to listen on (default: settings.port, 4545 unless set; 0 = any free port)', parsePort)
    .option('--host <address>', 'address to listen on (default: settings.host, 127.0.0.1 unless set; one beyond loopback is reachable from other machines)')
    .option('--json', 'print {pid, host, port, baseUrls, stoppedPid, forced, byLoginService}')
    .action(async (flags: { port?: number; host?: string; json?: boolean }) => {
      warnIfExposed(ctx, flags.host);
      // said at once, so a start that then fails does not hide that the daemon was stopped
      const saidStopped = (stopped: StopResult) => (flags.json ? undefined : ctx.out(stoppedSentence(stopped)));
      const { daemon, stoppedPid, forced, byLoginService } = await restart(ctx, flags, saidStopped);
      if (flags.json) {
        // as `start --json`, with what was stopped instead of alreadyRunning
        ctx.json({ pid: daemon.pid, host: daemon.host, port: daemon.port, baseUrls: baseUrls(daemon.host, daemon.port), stoppedPid: stoppedPid ?? null, forced, byLoginService });
        return;
      }
      ctx.out(`svc-proxy started (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}${byLoginService ? ' by its login service' : ''}`);
      printBaseUrls(ctx, daemon.host, daemon.port);
    });
}

async function restart(ctx: CliContext, flags: { port?: number; host?: string }, onStopped: (stopped: StopResult) => void): Promise<Restarted> {
  if (flags.port === undefined && flags.host === undefined) {
    const [{ restartThroughService }, { ServiceCommandError }] = await Promise.all([import('../service/service-restart.js'), import('../service/service-manager.js')]);
    try {
      const restarted = await restartThroughService(ctx);
      if (restarted) {
        if (!restarted.daemon) throw new CliError(`The login service (${restarted.title}) was restarted, but its daemon did not answer in time; see \`svc-proxy service status\` and ${ctx.paths().daemonLog}.`, 1, { code: 'service_daemon_not_answering' });
        if (restarted.before !== undefined) onStopped({ pid: restarted.before, forced: false });
        // the service manager does the stopping; it reports no kill
        return { daemon: restarted.daemon, stoppedPid: restarted.before, forced: false, byLoginService: true };
      }
    } catch (err) {
      if (!(err instanceof ServiceCommandError)) throw err;
      ctx.err(`note: the login service could not be restarted (${err.message}); restarting the daemon by hand.`);
    }
  }
  // the wait `stop` gives: in-flight answers get the whole drain before the new daemon starts
  const stopped = await stopDaemonOf(ctx, await drainBudget(ctx));
  if (stopped) onStopped(stopped);
  const { daemon } = await ensureDaemon(ctx, { port: flags.port, host: flags.host });
  return { daemon, stoppedPid: stopped?.pid, forced: stopped?.forced ?? false, byLoginService: false };
}
