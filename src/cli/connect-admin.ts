/**
 * The running daemon's admin API for a CLI command (null: none runs), saying on stderr while it
 * waits for daemon.json (daemonWaitNotice).
 */
import { AdminClient } from './admin-client.js';
import { daemonWaitNotice } from './daemon-wait-notice.js';
import type { CliContext } from './io.js';

export function connectAdmin(ctx: CliContext): Promise<AdminClient | null> {
  return AdminClient.connect(ctx.paths(), daemonWaitNotice(ctx));
}
