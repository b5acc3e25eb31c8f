/**
 * `svc-proxy restart` where a login service runs the daemon: through the service manager, so the
 * new daemon is the service's again (with its environment, restarted after a crash) rather than
 * one started by hand beside a stopped service — after an upgrade of svc-proxy, say. And the wait
 * for a daemon the manager started, shared with `service install`.
 */
import type { StatePaths } from '../../config/paths.js';
import { findLiveDaemon, type DaemonLocation } from '../../daemon/control.js';
import { daemonOf } from '../daemon-of.js';
import type { CliContext } from '../io.js';
import { installedService } from './service-manager.js';

/** How long a daemon the manager started gets to answer /health. */
export const SERVICE_START_WAIT_MS = 30_000;

/** The daemon once one other than `previousPid` answers, or null after `SERVICE_START_WAIT_MS`. */
export async function daemonAfterStart(paths: StatePaths, previousPid: number | undefined): Promise<DaemonLocation | null> {
  const deadline = Date.now() + SERVICE_START_WAIT_MS;
  for (;;) {
    // silent: the service's daemon is starting, and this loop waits for it anyway
    const daemon = await findLiveDaemon(paths, null);
    if (daemon && daemon.pid !== previousPid) return daemon;
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The daemon the service started (null: none in time), or null when no service serves this state dir. A refusal of the manager throws its ServiceCommandError. */
export async function restartThroughService(ctx: CliContext): Promise<{ daemon: DaemonLocation | null; before: number | undefined; title: string } | null> {
  const paths = ctx.paths();
  const manager = await installedService(ctx.io.env, paths.dir);
  if (!manager) return null;
  const before = (await daemonOf(ctx))?.pid;
  await manager.restart();
  return { daemon: await daemonAfterStart(paths, before), before, title: `${manager.title} ${manager.file}` };
}
