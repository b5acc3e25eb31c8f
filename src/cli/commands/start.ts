/** `svc-proxy start [--foreground] [--port N] [--host ADDR] [--json]` */
import type { Command } from 'commander';
import { baseUrls } from '../../config/base-urls.js';
import { CliError, type CliContext } from '../io.js';
import { ensureDaemon, printBaseUrls, warnIfExposed } from '../daemon-control.js';
import { parsePort } from '../parse-options.js';

interface StartFlags {
  foreground?: boolean;
  port?: number;
  host?: string;
  logBodies?: boolean;
  json?: boolean;
  /** `--no-tui` sets false. */
  tui?: boolean;
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('start')
    .description('Start the daemon in the background (on settings.host:settings.port, 127.0.0.1:4545 unless set) and print the base URLs')
    .option('--foreground', 'run in this terminal instead (for launchd, systemd, containers)')
    .option('--port <port>', 'port to listen on (default: settings.port, 4545 unless set; 0 = any free port)', parsePort)
    .option('--host <address>', 'address to listen on (default: settings.host, 127.0.0.1 unless set; one beyond loopback is reachable from other machines)')
    .option('--log-bodies', 'log request and response bodies in the request log for this run (debugging; credentials and images redacted)')
    .option('--json', 'print {pid, host, port, alreadyRunning, baseUrls}')
    .option('--no-tui', 'with --foreground in a terminal: print the daemon log instead of opening the terminal UI')
    .action(async (flags: StartFlags) => {
      warnIfExposed(ctx, flags.host);
      if (flags.foreground) return runForeground(ctx, flags);
      const { daemon, alreadyRunning } = await ensureDaemon(ctx, { port: flags.port, host: flags.host, logBodies: flags.logBodies });
      const unapplied = alreadyRunning ? notApplied(flags, daemon) : [];
      // a running daemon keeps what it was started with: say so, or `start --log-bodies` looks like it worked
      if (unapplied.length > 0) ctx.err(`svc-proxy: note: the daemon was already running; ${unapplied.join(', ')} did not change it. To start it with ${unapplied.length === 1 ? 'that' : 'them'}: svc-proxy stop, then this start again.`);
      if (flags.json) {
        ctx.json({ pid: daemon.pid, host: daemon.host, port: daemon.port, alreadyRunning, baseUrls: baseUrls(daemon.host, daemon.port) });
        return;
      }
      ctx.out(alreadyRunning ? `svc-proxy is already running (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}` : `svc-proxy started (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}`);
      printBaseUrls(ctx, daemon.host, daemon.port);
      if (!alreadyRunning) ctx.out('Create a key for your tools: svc-proxy key create --name <name>');
    });
}

/** The options of this start that a daemon already running was not started with (as far as can be told). */
function notApplied(flags: StartFlags, daemon: { host: string; port: number }): string[] {
  const out: string[] = [];
  if (flags.port !== undefined && flags.port !== 0 && flags.port !== daemon.port) out.push(`--port ${flags.port}`);
  if (flags.host !== undefined && flags.host !== daemon.host) out.push(`--host ${flags.host}`);
  if (flags.logBodies) out.push('--log-bodies');
  return out;
}

async function runForeground(ctx: CliContext, flags: StartFlags): Promise<void> {
  const [{ startDaemon }, { createDaemonLogger }, { AlreadyRunningError }, { foregroundLog }] = await Promise.all([
    import('../../daemon/runtime.js'),
    import('../../daemon/logger.js'),
    import('../../daemon/runtime-file.js'),
    import('../../daemon/foreground-output.js'),
  ]);
  // In an interactive terminal the TUI takes the screen (src/tui/foreground.ts); the daemon's own
  // log then goes to daemon.log instead of stderr.
  const withTui = flags.tui !== false && !flags.json && ctx.io.stdin.isTTY === true && (ctx.io.stdout as { isTTY?: boolean }).isTTY === true;
  const foregroundTui = withTui ? await import('../../tui/foreground.js') : undefined;
  // stderr while someone reads it, daemon.log once the pipe is gone (foreground-output.ts)
  const logFile = foregroundTui?.daemonLogFile(ctx.paths().daemonLog) ?? foregroundLog(ctx.io.stderr, ctx.paths().daemonLog, [ctx.io.stdout]);
  const logger = createDaemonLogger(logFile.write);
  // A long-running daemon reports stray errors rather than dying with every connection in flight
  // (as the background one does, daemon/main.ts).
  const onUncaught = (err: unknown) => logger.error('uncaught exception', err);
  const onUnhandled = (err: unknown) => logger.error('unhandled rejection', err);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUnhandled);
  const stopReporting = () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUnhandled);
  };
  let daemon;
  try {
    daemon = await startDaemon({
      stateDir: ctx.paths().dir,
      port: flags.port,
      host: flags.host,
      logBodies: flags.logBodies,
      env: ctx.io.env,
      logger,
    });
  } catch (err) {
    stopReporting();
    await logFile.close();
    if (err instanceof AlreadyRunningError) throw new CliError(`${err.message} Stop it first (svc-proxy stop) to run in the foreground.`, 1, { code: 'already_running' });
    throw err;
  }
  if (foregroundTui) {
    await foregroundTui.runForegroundTui({ paths: ctx.paths(), env: ctx.io.env, daemon, stdin: ctx.io.stdin as NodeJS.ReadStream, stdout: ctx.io.stdout as NodeJS.WriteStream });
    stopReporting();
    await logFile.close();
    return;
  }
  if (flags.json) ctx.json({ pid: daemon.pid, host: daemon.host, port: daemon.port, alreadyRunning: false, baseUrls: daemon.baseUrls });
  else {
    ctx.out(`svc-proxy running in the foreground (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}; Ctrl-C stops it`);
    printBaseUrls(ctx, daemon.host, daemon.port);
  }
  const onSignal = (signal: string) => void daemon.stop(signal);
  const onHup = () => void daemon.reload().catch(() => {});
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onHup);
  await daemon.stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onHup);
  stopReporting();
  await logFile.close();
}
