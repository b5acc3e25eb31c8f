/**
 * Starting the daemon from the CLI, shared by `start`, `restart`, and commands that need a running
 * daemon first (`run`, `tui`): `ensureDaemon(ctx)`.
 */
import { baseUrls, isLoopbackHost } from '../config/base-urls.js';
import type { StatePaths } from '../config/paths.js';
import { DaemonStartError, checkHealth, findDaemon, spawnDaemon, type DaemonLocation } from '../daemon/control.js';
import { CliError, type CliContext } from './io.js';
import { daemonOf } from './daemon-of.js';

export interface StartOptions {
  port?: number;
  host?: string;
  /** `start --log-bodies`. */
  logBodies?: boolean;
}

export interface Started {
  daemon: DaemonLocation;
  alreadyRunning: boolean;
}

export function warnIfExposed(ctx: CliContext, host: string | undefined): void {
  if (host !== undefined && !isLoopbackHost(host)) {
    ctx.err(`warning: listening on ${host} makes the proxy reachable from other machines; every request still needs a service key.`);
  }
}

/** Start the background daemon unless one already answers for this state dir. */
export async function ensureDaemon(ctx: CliContext, opts: StartOptions = {}): Promise<Started> {
  const paths = ctx.paths();
  const running = await daemonOf(ctx);
  if (running && (await checkHealth(running.origin, 5_000))) return { daemon: running, alreadyRunning: true };
  // (findDaemon already took a pid reused by another process for a stale file)
  if (running) throw new CliError(`A daemon (pid ${running.pid}) is registered but does not answer on ${running.origin}; stop it first: svc-proxy stop`, 1, { code: 'daemon_not_answering' });
  // Fail early, with the file named, on a broken config.json (the daemon would refuse it too).
  const { ConfigStore } = await import('../config/store.js');
  await ConfigStore.open(paths);
  try {
    return { daemon: await spawnDaemon(paths, { ...opts, env: ctx.io.env }), alreadyRunning: false };
  } catch (err) {
    if (!(err instanceof DaemonStartError)) throw err;
    // Several commands started at once (two `svc-proxy run` in two terminals): one daemon wins
    // the state dir and the port, the others' exit. Use the winner rather than fail.
    const winner = await liveDaemonWithin(paths, RACE_WAIT_MS);
    if (winner) return { daemon: winner, alreadyRunning: true };
    throw new CliError(`could not start the daemon: ${err.message}`, 1, { code: 'start_failed' });
  }
}

/** How long a start that lost a race waits for the winner to answer. */
const RACE_WAIT_MS = 5_000;
/** A failure with no other daemon registered by then is a failure of its own (port taken, …). */
const RACE_REGISTER_MS = 1_000;

async function liveDaemonWithin(paths: StatePaths, ms: number): Promise<DaemonLocation | null> {
  const started = Date.now();
  for (;;) {
    // silent: this loop is a wait of its own
    const daemon = await findDaemon(paths, null);
    if (daemon && (await checkHealth(daemon.origin, 1_000))) return daemon;
    const waited = Date.now() - started;
    if (waited >= ms || (!daemon && waited >= RACE_REGISTER_MS)) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function printBaseUrls(ctx: CliContext, host: string, port: number): void {
  const urls = baseUrls(host, port);
  ctx.out(`  protocol A (OpenAI):    ${urls.a}`);
  ctx.out(`  protocol B (Anthropic): ${urls.b}`);
}

/** How long a stop may take: a little longer than the daemon's own drain timeout. */
export async function drainBudget(ctx: CliContext): Promise<number> {
  try {
    const { ConfigStore } = await import('../config/store.js');
    const store = await ConfigStore.open(ctx.paths());
    return store.current().settings.drainTimeoutMs + 10_000;
  } catch {
    return 20_000;
  }
}
