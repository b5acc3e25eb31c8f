/** A JSON object: not null, not an array. The guard every body edit takes before reading a member. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
