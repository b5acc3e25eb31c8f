/**
 * Gemini's OpenAI-compatible model list states no context window; its native one does
 * (`GET …/v1beta/models`, `inputTokenLimit` per model, paged by `nextPageToken`, the key in
 * `x-goog-api-key`). The catalog reads it beside the list, for the windows only: what can be sent
 * stays what the compatible list says.
 */
import { joinUrl } from './base-url.js';
import { geminiNativeRoot, stripModelsPrefix } from './gemini.js';

export const GEMINI_PAGE_SIZE = 1000;

export function geminiModelsUrl(baseUrl: string, pageToken?: string): string {
  const url = joinUrl(geminiNativeRoot(baseUrl), '/models');
  return `${url}${url.includes('?') ? '&' : '?'}pageSize=${GEMINI_PAGE_SIZE}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
}

export function geminiListHeaders(credential: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credential) headers['x-goog-api-key'] = credential;
  return headers;
}

/** Model id (without `models/`) → input token limit, from one page of the native list. */
export function geminiInputLimits(page: Record<string, unknown>): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of Array.isArray(page.models) ? (page.models as unknown[]) : []) {
    if (typeof m !== 'object' || m === null) continue;
    const { name, inputTokenLimit: limit } = m as Record<string, unknown>;
    if (typeof name === 'string' && typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0) out.set(stripModelsPrefix(name), limit);
  }
  return out;
}

export function geminiNextPage(page: Record<string, unknown>): string | undefined {
  return typeof page.nextPageToken === 'string' && page.nextPageToken !== '' ? page.nextPageToken : undefined;
}
