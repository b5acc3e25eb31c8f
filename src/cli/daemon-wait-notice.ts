/**
 * The line a command prints while it waits for a running daemon's daemon.json (deleted by hand, or
 * the daemon is still starting): on stderr, so stdout (and --json there) stays the command's answer.
 */
import type { RuntimeWaitNotice } from '../daemon/control.js';
import type { CliContext } from './io.js';

export function daemonWaitNotice(ctx: CliContext): RuntimeWaitNotice {
  return (pid, remainingMs) =>
    ctx.err(`svc-proxy: daemon.pid names a running daemon (pid ${pid}) but daemon.json is missing; waiting up to ${Math.ceil(remainingMs / 1000)} s for the daemon to write it again…`);
}
