/** Moving a cursor through a list with the usual keys, and the window of rows that shows it. */
import type { Key } from 'ink';

/** The new index for a key, or undefined when the key is not a movement. */
export function moveIndex(index: number, count: number, key: Key, page: number): number | undefined {
  if (count === 0) return undefined;
  let next: number;
  if (key.upArrow && !key.shift) next = index - 1;
  else if (key.downArrow && !key.shift) next = index + 1;
  else if (key.pageUp) next = index - Math.max(1, page);
  else if (key.pageDown) next = index + Math.max(1, page);
  else if (key.home) next = 0;
  else if (key.end) next = count - 1;
  else return undefined;
  return Math.max(0, Math.min(count - 1, next));
}

/** First row to show so that `index` is visible in `rows` rows, moving as little as possible. */
export function windowStart(index: number, count: number, rows: number, previous: number): number {
  if (rows <= 0 || count <= rows) return 0;
  let start = Math.min(previous, count - rows);
  if (index < start) start = index;
  if (index >= start + rows) start = index - rows + 1;
  return Math.max(0, start);
}
