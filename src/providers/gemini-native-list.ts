/**
 * What Gemini's native model list states of each model, which its OpenAI-compatible list (the one
 * svc-proxy lists from) does not: `GET …/v1beta/models`, the same key in `x-goog-api-key`, paged by
 * `nextPageToken`. Per model (ai.google.dev/api/models, "Resource: Model"): `inputTokenLimit`,
 * `outputTokenLimit`, `supportedGenerationMethods` (`generateContent` for a model that writes
 * text; an embedding model has `embedContent` only, AQA `generateAnswer`) and `thinking` ("Whether
 * the model supports thinking"). The catalog reads it beside the list: what can be sent stays what
 * the compatible list says, less the models this one states cannot generate content.
 */
import { joinUrl } from './base-url.js';
import { geminiNativeRoot, stripModelsPrefix } from './gemini.js';
import { tokenCount } from './token-count.js';
import { isObject } from '../util/is-object.js';

const GEMINI_PAGE_SIZE = 1000;

/** One model as the native list states it (fields it leaves out are absent). */
export interface GeminiNativeFacts {
  inputLimit?: number;
  outputLimit?: number;
  /** False when the list states methods without `generateContent` (an embedding or AQA model). */
  generates?: boolean;
  thinks?: boolean;
}

export function geminiModelsUrl(baseUrl: string, pageToken?: string): string {
  const url = joinUrl(geminiNativeRoot(baseUrl), '/models');
  return `${url}${url.includes('?') ? '&' : '?'}pageSize=${GEMINI_PAGE_SIZE}${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
}

export function geminiListHeaders(credential: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credential) headers['x-goog-api-key'] = credential;
  return headers;
}

/**
 * Model id (without `models/`) → what one page of the native list states of it. `thinking` is a
 * proto3 bool, which Google's JSON leaves out when false (gemini-2.0-flash's entry has none, 2.5's
 * say `true`): so an entry without it is read as not thinking once any entry of the list states
 * it (`listStatesThinking`), and as unknown on a list that never does (a gateway's, or one older
 * than the field).
 */
export function geminiNativeFacts(page: Record<string, unknown>): Map<string, GeminiNativeFacts> {
  const out = new Map<string, GeminiNativeFacts>();
  for (const m of Array.isArray(page.models) ? (page.models as unknown[]) : []) {
    if (!isObject(m) || typeof m.name !== 'string') continue;
    const facts: GeminiNativeFacts = {};
    const input = tokenCount(m.inputTokenLimit);
    if (input !== undefined) facts.inputLimit = input;
    const output = tokenCount(m.outputTokenLimit);
    if (output !== undefined) facts.outputLimit = output;
    const methods = m.supportedGenerationMethods;
    if (Array.isArray(methods)) facts.generates = methods.includes('generateContent');
    if (typeof m.thinking === 'boolean') facts.thinks = m.thinking;
    out.set(stripModelsPrefix(m.name), facts);
  }
  return out;
}

/** Whether any entry read states `thinking` (see geminiNativeFacts). */
export function listStatesThinking(facts: ReadonlyMap<string, GeminiNativeFacts>): boolean {
  for (const f of facts.values()) if (f.thinks !== undefined) return true;
  return false;
}

export function geminiNextPage(page: Record<string, unknown>): string | undefined {
  return typeof page.nextPageToken === 'string' && page.nextPageToken !== '' ? page.nextPageToken : undefined;
}
