/**
 * OpenAI's web search, both ways. A Responses client's `web_search` tool → the hub's (for
 * Anthropic models, which search with their own server tool). OpenAI's `web_search_call` output
 * items → the hub's WebSearchItem. Only searches count: the
 * `open_page` and `find_in_page` steps of the same tool are the model reading a page it found,
 * not a search of their own. The pages come from `action.sources` (listed when the request's
 * `include` asks for them); their titles only from the answer's `url_citation` annotations.
 */
import type { OutputItem, UrlCitation, WebSearchItem, WebSearchTool, WebSource } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeDomains, decodeLocation } from '../web-search-fields.js';
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

/** url → title of every page the decoded answer's text cites (its `url_citation` annotations, read by urlCitationsOf). */
export function citedPages(output: readonly OutputItem[]): Map<string, string | undefined> {
  const cited = new Map<string, string | undefined>();
  for (const item of output) {
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type !== 'text') continue;
      for (const c of part.citations ?? []) if (cited.get(c.url) === undefined) cited.set(c.url, c.title);
    }
  }
  return cited;
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

/** OpenAI's web search tool types a Responses client may declare. */
export function isWebSearchToolType(type: unknown): boolean {
  return type === 'web_search' || type === 'web_search_preview' || (typeof type === 'string' && /^web_search(?:_preview)?_\d{4}_\d{2}_\d{2}$/.test(type));
}

/**
 * A Responses client's web search as the hub's, for a target that searches on its own
 * (Anthropic's server tool): allowed domains and the approximate location carry over;
 * `search_context_size` has no counterpart there.
 */
export function decodeWebSearchTool(tool: JsonObject, param: string): WebSearchTool {
  const out: WebSearchTool = { type: 'web_search', name: 'web_search' };
  const filters = tool.filters;
  if (filters !== undefined && filters !== null) {
    if (!isObject(filters)) throw badRequest('invalid_request', `${param}.filters must be an object.`, `${param}.filters`);
    const allowed = decodeDomains(filters.allowed_domains, `${param}.filters.allowed_domains`);
    if (allowed) out.allowedDomains = allowed;
  }
  const location = decodeLocation(tool.user_location, `${param}.user_location`);
  if (location) out.userLocation = location;
  return out;
}

/**
 * The `url_citation` annotations of an output_text part as hub citations of their stretch of its
 * text (`length` long); one whose offsets do not fit the text cites all of it.
 */
export function urlCitationsOf(annotations: unknown, length: number): UrlCitation[] {
  if (!Array.isArray(annotations)) return [];
  const out: UrlCitation[] = [];
  for (const a of annotations) {
    if (!isObject(a) || a.type !== 'url_citation') continue;
    const url = str(a.url);
    if (url === undefined) continue;
    const citation: UrlCitation = { url };
    const title = str(a.title);
    if (title !== undefined && title !== '') citation.title = title;
    const { start_index: start, end_index: end } = a;
    if (Number.isInteger(start) && Number.isInteger(end) && (start as number) >= 0 && (start as number) <= (end as number) && (end as number) <= length) {
      citation.start = start as number;
      citation.end = end as number;
    }
    out.push(citation);
  }
  return out;
}
