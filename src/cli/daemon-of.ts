/**
 * The daemon of this state dir for a CLI command, found (findDaemon, findLiveDaemon) or stopped
 * (stopDaemon) as daemon/control.ts does, saying on stderr while it waits for daemon.json
 * (daemonWaitNotice). control.ts is loaded only when one is called, as the commands loaded it.
 */
import type { DaemonLocation, StopResult } from '../daemon/control.js';
import { daemonWaitNotice } from './daemon-wait-notice.js';
import type { CliContext } from './io.js';

/** The daemon registered for this state dir whose process runs (null: none). */
export async function daemonOf(ctx: CliContext): Promise<DaemonLocation | null> {
  const { findDaemon } = await import('../daemon/control.js');
  return findDaemon(ctx.paths(), daemonWaitNotice(ctx));
}

/** The daemon of this state dir once it answers /health (null: none runs, or it does not answer). */
export async function liveDaemonOf(ctx: CliContext): Promise<DaemonLocation | null> {
  const { findLiveDaemon } = await import('../daemon/control.js');
  return findLiveDaemon(ctx.paths(), daemonWaitNotice(ctx));
}

/** Stops the daemon of this state dir within `timeoutMs` (null: none ran). */
export async function stopDaemonOf(ctx: CliContext, timeoutMs: number): Promise<StopResult | null> {
  const { stopDaemon } = await import('../daemon/control.js');
  return stopDaemon(ctx.paths(), timeoutMs, daemonWaitNotice(ctx));
}
