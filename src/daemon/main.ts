/**
 * Entry point of the background daemon process (spawned by `svc-proxy start`, output going to
 * daemon.log): `node dist/daemon/main.js [--port N] [--host H]`, state dir from SVC_PROXY_HOME or
 * the platform default. SIGTERM/SIGINT drain and exit 0; SIGHUP re-reads config.json. Exit 1 when
 * it cannot start; 0 when another daemon already serves the state dir.
 */
import { parseArgs } from 'node:util';
import { resolveStateDir } from '../config/paths.js';
import { createDaemonLogger } from './logger.js';
import { AlreadyRunningError } from './runtime-file.js';
import { startDaemon } from './runtime.js';

async function run(): Promise<number> {
  const logger = createDaemonLogger();
  const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, 'log-bodies': { type: 'boolean' } }, strict: true });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    logger.error(`invalid --port ${values.port}`);
    return 2;
  }

  // A long-running daemon reports stray errors rather than dying with every connection in flight.
  process.on('uncaughtException', (err) => logger.error('uncaught exception', err));
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', err));

  let daemon;
  try {
    daemon = await startDaemon({ stateDir: resolveStateDir(), port, host: values.host, logBodies: values['log-bodies'] === true, logger });
  } catch (err) {
    // Not a failure: a login service (cli/service) must not restart, again and again, a daemon
    // that found one already serving this state dir.
    if (err instanceof AlreadyRunningError) {
      logger.info(`not started: another daemon (pid ${err.pid}) already serves this state dir`);
      return 0;
    }
    logger.error(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const { stop } = daemon;
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGHUP', () => {
    daemon.reload().catch(() => {}); // reported by the daemon itself
  });
  await daemon.stopped;
  return 0;
}

run().then(
  // Exit explicitly: native keychain threads or pooled sockets must not keep a stopped daemon alive.
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`svc-proxy daemon: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
