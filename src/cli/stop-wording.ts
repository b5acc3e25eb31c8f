/**
 * What a stop that ended a daemon says: shared by `svc-proxy stop` and `svc-proxy restart`, so the
 * same event reads the same whichever command caused it.
 */
import type { StopResult } from '../daemon/control.js';

export function stoppedSentence({ pid, forced }: StopResult): string {
  return forced ? `svc-proxy (pid ${pid}) did not stop in time and was killed.` : `svc-proxy stopped (pid ${pid}).`;
}
