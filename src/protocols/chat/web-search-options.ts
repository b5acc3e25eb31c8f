/**
 * A Chat client's `web_search_options` — OpenAI's search models look the web up as they answer —
 * as the hub's web search tool, for a converted target that searches on its own (Anthropic's
 * server tool, OpenAI's Responses `web_search`), as LiteLLM maps it. The model decides when to
 * search. `search_context_size` goes to OpenAI; Anthropic has no counterpart. The searches have no Chat form; the answer's text says what they found, and the
 * pages it cites are `url_citation` annotations (response-encode.ts, stream-encode.ts).
 */
import type { WebSearchTool } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeLocation } from '../web-search-fields.js';
import { isRecord } from './guards.js';

type ContextSize = NonNullable<WebSearchTool['contextSize']>;
const SIZES: ReadonlyArray<ContextSize> = ['low', 'medium', 'high'];

function isContextSize(v: unknown): v is ContextSize {
  return SIZES.includes(v as ContextSize);
}

export function decodeWebSearchOptions(v: unknown): WebSearchTool | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v)) throw badRequest('invalid_request', 'web_search_options must be an object.', 'web_search_options');
  const size = v.search_context_size;
  if (size !== undefined && size !== null && !isContextSize(size)) {
    throw badRequest('invalid_request', 'web_search_options.search_context_size must be "low", "medium" or "high".', 'web_search_options.search_context_size');
  }
  const tool: WebSearchTool = { type: 'web_search', name: 'web_search' };
  if (isContextSize(size)) tool.contextSize = size;
  const location = v.user_location;
  if (location !== undefined && location !== null) {
    const at = 'web_search_options.user_location';
    if (!isRecord(location)) throw badRequest('invalid_request', `${at} must be an object.`, at);
    const approximate = decodeLocation(location.approximate, `${at}.approximate`);
    if (approximate) tool.userLocation = approximate;
  }
  return tool;
}
