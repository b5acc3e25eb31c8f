/**
 * The Log footer's key hints that fit whole after its status, in order: cut at the edge they read
 * as `/…` or `space pause…`; the ones left off are still under `?`.
 */
import { textWidth } from '../../util/text-width.js';

export const LOG_HINTS = ['/ filter', 's status', 'k key', 'space pause', 'Enter details'] as const;

export function fittingHints(cells: number): string {
  let out = '';
  for (const hint of LOG_HINTS) {
    const next = `${out} · ${hint}`;
    if (textWidth(next) > cells) break;
    out = next;
  }
  return out;
}
