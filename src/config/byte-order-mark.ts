/**
 * A byte-order mark, as Windows editors save UTF-8, is not content (JSON.parse refuses it). A file
 * of its own with no imports: shell completion reads config.json on every Tab without loading the
 * schema.
 */
export function withoutByteOrderMark(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
