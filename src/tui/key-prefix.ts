/**
 * A service key's prefix in a table cell: whole, ending in … (the key goes on), or, in a column too
 * narrow for it, its end after …: every key starts `sk-svc-proxy-`, so cut at its end each read `sk-…`.
 */
import { printable } from '../util/printable.js';
import { clipStartToWidth, textWidth } from '../util/text-width.js';

export const prefixCell = (prefix: string): string => `${prefix}…`;

/** A prefix cell cut to `width`: the distinctive end of the prefix, without the … that says the key goes on. */
export function clipPrefixCell(cell: string, width: number): string {
  const shown = printable(cell);
  if (textWidth(shown) <= width) return shown;
  return clipStartToWidth(shown.endsWith('…') ? shown.slice(0, -1) : shown, width);
}
