/** The Log screen's key hints, for its footer and its detail view (fitted by key-hints.ts). */
import type { Hint } from '../key-hints.js';

export const LOG_HINTS: readonly Hint[] = ['/ filter', 's status', 'k key', 'space pause', 'Enter details'];
/** The detail view's: the way back first, as it is the one thing a reader must find. */
export const DETAIL_HINTS: readonly Hint[] = [
  ['Esc/Enter back to the log', 'Esc back'],
  ['↑↓ PgUp PgDn scroll', '↑↓ scroll'],
];
