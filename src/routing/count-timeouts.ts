/**
 * How long counting tokens waits for a provider. Connecting as a generation does; for the answer,
 * the settings' headersTimeoutMs and idleTimeoutMs but never past a minute: Claude Code counts
 * often, a hung count waiting as long as a generation may (10 minutes by default) stalls the tool,
 * and a count's answer is a few bytes whatever the prompt. A user may still set it lower.
 */
import type { Config } from '../config/schema.js';
import type { CountTimeouts } from '../providers/count-tokens.js';

/** The longest a count waits for its answer's headers, and for its body after them. */
export const COUNT_WAIT_MS = 60_000;

export function countTimeouts(config: Config): CountTimeouts {
  const s = config.settings;
  return {
    connectTimeoutMs: s.connectTimeoutMs,
    headersTimeoutMs: Math.min(s.headersTimeoutMs, COUNT_WAIT_MS),
    idleTimeoutMs: Math.min(s.idleTimeoutMs, COUNT_WAIT_MS),
  };
}
