/**
 * Anthropic's paging of GET /v1/models: `limit` (1–1000), `after_id` (the page right
 * after that model) and `before_id` (the page right before it, in the same order), answered with
 * `has_more` in the direction asked and the page's `first_id`/`last_id` — the cursors the SDK's
 * auto-pagination sends back (after_id = last_id; before_id = first_id when it paged backwards).
 */
import { badRequest } from '../protocols/errors.js';
import { cursorIndex, pageBetween } from './cursor-page.js';

export const MAX_MODEL_PAGE = 1000;

export interface ModelPage<T> {
  data: T[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/** One page of `items` (in list order); 400 invalid_request for a bad limit or a cursor the list does not hold. */
export function modelPage<T extends { id: string }>(items: readonly T[], query: URLSearchParams): ModelPage<T> {
  const limitText = query.get('limit');
  // Anthropic's default page is 20 models; here a list asked for without a limit is whole, as it
  // always was: a tool that reads only the first page (several do) still sees every model, and one
  // that pages finds has_more false
  const limit = limitText === null ? Math.max(items.length, 1) : Number(limitText);
  if (limitText !== null && (limitText === '' || !Number.isInteger(limit) || limit < 1 || limit > MAX_MODEL_PAGE)) {
    throw badRequest('invalid_request', `limit must be an integer from 1 to ${MAX_MODEL_PAGE} (got ${String(limitText).slice(0, 40)}).`, 'limit');
  }
  const { data, hasMore } = pageBetween(items, limit, cursorIndex(items, query, 'after_id', 'model of this list'), cursorIndex(items, query, 'before_id', 'model of this list'));
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}
