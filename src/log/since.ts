/**
 * Time bounds as people type them: a duration back from now (`90s`, `10m`, `2h`, `7d`, `1w`) or an
 * absolute ISO date/time (`2025-01-31`, `2025-01-31T12:00`, `2025-01-31T12:00:00Z`).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DURATION_RE = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)$/i;
const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export class SinceError extends Error {
  readonly code = 'invalid_since';
}

/** Epoch ms for a `--since` value; throws SinceError with a message fit for the user. */
export function parseSince(value: string, now: number = Date.now()): number {
  const v = value.trim();
  const d = DURATION_RE.exec(v);
  // further back than the epoch is everything: no log entry is older
  if (d) return Math.max(0, now - Number(d[1]) * UNIT_MS[d[2]!.toLowerCase()]!);
  if (ISO_RE.test(v)) {
    const t = Date.parse(v.replace(' ', 'T'));
    if (!Number.isNaN(t)) return t;
  }
  throw new SinceError(`invalid time "${value}": use a duration like 30s, 10m, 2h, 7d, 1w or an ISO date/time like 2025-01-31T12:00:00Z`);
}
