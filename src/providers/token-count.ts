/**
 * A token count a provider's list or server states (a window, an output limit, a loaded context):
 * a positive whole number. Anything else (0, a fraction, a string, past 2^53) says nothing, so the
 * figure stays unknown rather than wrong.
 */
export function tokenCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}
