/**
 * Cursor paging as OpenAI's and Anthropic's lists do it: after an item, the page right after it;
 * before one (alone), the items nearest it; `hasMore` in the direction asked. Used by the stored
 * responses' item lists and the protocol B models list.
 */
import { badRequest } from '../protocols/errors.js';

/** Where the item a cursor names is; 400 when the list does not hold it (an empty page would end a listing early, unnoticed). */
export function cursorIndex(items: ReadonlyArray<{ id?: unknown }>, query: URLSearchParams, param: string, what: string): number | undefined {
  const cursor = query.get(param);
  if (cursor === null) return undefined;
  const i = items.findIndex((item) => item.id === cursor);
  if (i === -1) throw badRequest('invalid_request', `${param} names no ${what}: ${cursor.slice(0, 200)}.`, param);
  return i;
}

export function pageBetween<T>(items: readonly T[], limit: number, after: number | undefined, before: number | undefined): { data: T[]; hasMore: boolean } {
  const from = after === undefined ? 0 : after + 1;
  const to = before ?? items.length;
  const backwards = before !== undefined && after === undefined;
  const start = backwards ? Math.max(from, to - limit) : from;
  const data = items.slice(start, Math.max(start, Math.min(to, start + limit)));
  return { data, hasMore: backwards ? start > from : start + data.length < to };
}
