/**
 * Anthropic's web search server tool, for Messages clients whose model runs on another provider
 * (Claude Code's WebSearch tool declares `web_search_20250305` and forces it).
 *
 * In the request it becomes the hub's WebSearchTool; a search the provider ran comes back as
 * Anthropic reports one: a `server_tool_use` block (name `web_search`, input `{query}`) followed
 * by a `web_search_tool_result` block listing the pages (or an error object when it failed).
 * Claude Code counts those blocks ("Did N searches") and lists their titles and URLs.
 * `encrypted_content` is Anthropic's own proof of a result and cannot be made here: it is empty.
 */
import type {
  ServerToolUseBlock,
  ServerToolUsage,
  WebSearchResultBlock,
  WebSearchTool20250305,
  WebSearchToolResultBlock,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { UrlCitation, WebSearchItem, WebSearchTool } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeDomains, decodeLocation } from '../web-search-fields.js';
import { expectString, isObject, optNumber, type JsonObject } from './json.js';

/** `web_search_20250305`, `web_search_20260209` and later versions of the same tool. */
export function isWebSearchType(type: unknown): boolean {
  return typeof type === 'string' && /^web_search_\d{8}$/.test(type);
}

export function decodeWebSearchTool(t: JsonObject, path: string): WebSearchTool {
  const name = expectString(t.name, `${path}.name`);
  const tool: WebSearchTool = { type: 'web_search', name };
  const allowed = decodeDomains(t.allowed_domains, `${path}.allowed_domains`);
  if (allowed) tool.allowedDomains = allowed;
  const blocked = decodeDomains(t.blocked_domains, `${path}.blocked_domains`);
  if (blocked) tool.blockedDomains = blocked;
  const maxUses = optNumber(t.max_uses, `${path}.max_uses`);
  if (maxUses !== undefined) tool.maxUses = maxUses;
  const location = decodeLocation(t.user_location, `${path}.user_location`);
  if (location) tool.userLocation = location;
  return tool;
}

/** The hub's web search (from a Responses client) as Anthropic's server tool, which Claude runs itself. */
export function webSearchServerTool(tool: WebSearchTool): WebSearchTool20250305 {
  const out: WebSearchTool20250305 = { type: 'web_search_20250305', name: 'web_search' };
  if (tool.allowedDomains) out.allowed_domains = tool.allowedDomains;
  else if (tool.blockedDomains) out.blocked_domains = tool.blockedDomains;
  if (tool.maxUses !== undefined) out.max_uses = tool.maxUses;
  if (tool.userLocation) out.user_location = { type: 'approximate', ...tool.userLocation };
  return out;
}

/** A search's blocks need a server tool id of Anthropic's alphabet. */
export function serverToolUseId(searchId: string): string {
  return `srvtoolu_${searchId.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

export function serverToolUseBlock(search: WebSearchItem): ServerToolUseBlock {
  return { type: 'server_tool_use', id: serverToolUseId(search.id), name: 'web_search', input: queryInput(search), caller: { type: 'direct' } };
}

export function queryInput(search: WebSearchItem): { query: string } {
  return { query: search.query ?? '' };
}

export function webSearchResultBlock(search: WebSearchItem): WebSearchToolResultBlock {
  const content: WebSearchToolResultBlock['content'] = search.failed
    ? { type: 'web_search_tool_result_error', error_code: 'unavailable' }
    : search.sources.map((s): WebSearchResultBlock => ({ type: 'web_search_result', url: s.url, title: s.title ?? s.url, encrypted_content: '', page_age: null }));
  return { type: 'web_search_tool_result', tool_use_id: serverToolUseId(search.id), content, caller: { type: 'direct' } };
}

/** Usage's `server_tool_use` for a turn that ran `searches` searches (null when none, as Anthropic answers). */
export function serverToolUsage(searches: number): ServerToolUsage | null {
  return searches > 0 ? { web_search_requests: searches, web_fetch_requests: 0 } : null;
}

/** Why a server tool other than web search cannot be converted. */
export function refuseServerTool(t: JsonObject, path: string): never {
  const name = typeof t.name === 'string' ? ` (${t.name})` : '';
  throw badRequest(
    'unsupported_feature',
    `${path}: "${String(t.type)}"${name} is a tool Anthropic defines and runs itself; it only works with anthropic/… models. Remove it or declare a regular tool with an input_schema.`,
    `${path}.type`,
  );
}

/** The query a web search server_tool_use block asked, from its input (whole, or its streamed JSON). */
export function queryOf(input: unknown): string | undefined {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      return undefined;
    }
  }
  return isObject(value) && typeof value.query === 'string' ? value.query : undefined;
}

/** A web_search_tool_result block from Anthropic as the hub's search: its pages, or a failure. */
export function searchFromResult(block: JsonObject, query: string | undefined): WebSearchItem {
  const search: WebSearchItem = { type: 'web_search', id: typeof block.tool_use_id === 'string' ? block.tool_use_id : 'srvtoolu', sources: [] };
  if (query !== undefined) search.query = query;
  if (!Array.isArray(block.content)) {
    search.failed = true;
    return search;
  }
  for (const r of block.content) {
    if (!isObject(r) || typeof r.url !== 'string') continue;
    search.sources.push(typeof r.title === 'string' && r.title !== '' ? { url: r.url, title: r.title } : { url: r.url });
  }
  return search;
}

/**
 * A text block's citation of a page a web search found, as the hub's; undefined for citations of
 * anything else (documents, search results the client gave), which have no page to name.
 */
export function urlCitationOf(citation: unknown): UrlCitation | undefined {
  if (!isObject(citation) || citation.type !== 'web_search_result_location' || typeof citation.url !== 'string') return undefined;
  return typeof citation.title === 'string' && citation.title !== '' ? { url: citation.url, title: citation.title } : { url: citation.url };
}

/** The page citations among a text block's `citations` (absent, null or a list). */
export function urlCitationsOf(citations: unknown): UrlCitation[] {
  if (!Array.isArray(citations)) return [];
  const out: UrlCitation[] = [];
  for (const c of citations) {
    const cited = urlCitationOf(c);
    if (cited) out.push(cited);
  }
  return out;
}
