/**
 * What the daemon said of credentials.json's mode while doing what a command asked (open to others;
 * made 0600), said again on the CLI's stderr: otherwise it would be in daemon.log only. Without a
 * daemon the file's own notice went to stderr as it happened, so nothing is repeated.
 */
import type { ModeNotices } from '../secrets/operations.js';
import type { CliContext } from './io.js';

export function relayModeNotices(ctx: CliContext, mode: 'daemon' | 'offline', result: ModeNotices): void {
  if (mode === 'daemon') for (const notice of result.modeNotices ?? []) ctx.warn(notice);
}
