/**
 * `svc-proxy restart` where a login service runs the daemon: through the service manager, so the
 * new daemon is the service's again (with its environment, restarted after a crash) rather than
 * one started by hand beside a stopped service — after an upgrade of svc-proxy, say.
 */
import { homedir } from 'node:os';
import { findDaemon, findLiveDaemon, type DaemonLocation } from '../../daemon/control.js';
import type { CliContext } from '../io.js';
import { installedService } from './service-manager.js';

const RESTART_WAIT_MS = 30_000;

/** The daemon the service started (null: none in time), or null when no service serves this state dir. A refusal of the manager throws its ServiceCommandError. */
export async function restartThroughService(ctx: CliContext): Promise<{ daemon: DaemonLocation | null; before: number | undefined; title: string } | null> {
  const paths = ctx.paths();
  const manager = await installedService(process.platform, ctx.io.env, homedir(), process.getuid?.() ?? 0, paths.dir);
  if (!manager) return null;
  const before = (await findDaemon(paths))?.pid;
  await manager.restart();
  const deadline = Date.now() + RESTART_WAIT_MS;
  for (;;) {
    const daemon = await findLiveDaemon(paths);
    if ((daemon && daemon.pid !== before) || Date.now() > deadline) return { daemon: daemon && daemon.pid !== before ? daemon : null, before, title: `${manager.title} ${manager.file}` };
    await new Promise((r) => setTimeout(r, 100));
  }
}
