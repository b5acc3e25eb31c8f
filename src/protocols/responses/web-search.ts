/**
 * OpenAI's `web_search_call` output items → the hub's WebSearchItem. Only searches count: the
 * `open_page` and `find_in_page` steps of the same tool are the model reading a page it found,
 * not a search of their own. The pages come from `action.sources` (listed when the request's
 * `include` asks for them); their titles only from the answer's `url_citation` annotations.
 */
import type { OutputItem, WebSearchItem, WebSource } from '../hub.js';
import { isObject, str, type JsonObject } from './json.js';

/** A web_search_call item as a hub search, or undefined when it was not a search. */
export function webSearchOf(item: JsonObject): WebSearchItem | undefined {
  const action = isObject(item.action) ? item.action : undefined;
  if (action !== undefined && action.type !== undefined && action.type !== 'search') return undefined;
  const search: WebSearchItem = { type: 'web_search', id: str(item.id) ?? 'ws', sources: [] };
  const query = str(action?.query) ?? (Array.isArray(action?.queries) ? str(action.queries[0]) : undefined);
  if (query !== undefined) search.query = query;
  const seen = new Set<string>();
  for (const source of Array.isArray(action?.sources) ? action.sources : []) {
    const url = isObject(source) ? str(source.url) : undefined;
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    search.sources.push({ url });
  }
  if (item.status === 'failed') search.failed = true;
  return search;
}

/** url → title of every `url_citation` in a message item's content. */
export function citedPages(message: JsonObject, into: Map<string, string | undefined>): void {
  for (const part of Array.isArray(message.content) ? message.content : []) {
    if (!isObject(part) || !Array.isArray(part.annotations)) continue;
    for (const a of part.annotations) {
      if (!isObject(a) || a.type !== 'url_citation') continue;
      const url = str(a.url);
      if (url !== undefined && into.get(url) === undefined) into.set(url, str(a.title));
    }
  }
}

/**
 * Give the searches' pages the titles the answer cited them with; a cited page no search listed
 * (sources not included) joins the last search, so the client still sees where the answer is from.
 */
export function titleSearchSources(output: OutputItem[], cited: ReadonlyMap<string, string | undefined>): void {
  const searches = output.filter((i): i is WebSearchItem => i.type === 'web_search');
  if (searches.length === 0 || cited.size === 0) return;
  const listed = new Set<string>();
  for (const search of searches) {
    for (const source of search.sources) {
      listed.add(source.url);
      const title = cited.get(source.url);
      if (title !== undefined) source.title = title;
    }
  }
  const last = searches[searches.length - 1]!;
  if (last.failed) return;
  for (const [url, title] of cited) {
    if (listed.has(url)) continue;
    const page: WebSource = { url };
    if (title !== undefined) page.title = title;
    last.sources.push(page);
  }
}
