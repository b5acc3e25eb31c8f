/** Tool-call arguments (JSON text in the hub) → the object Messages wants as `input`. */

/** Truncated, invalid or non-object arguments become `{}`: Anthropic and its SDK require an object. */
export function parseToolInput(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
