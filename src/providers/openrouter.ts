/**
 * OpenRouter: Chat Completions plus its own `reasoning` object. Effort goes to
 * `reasoning.effort` (`none` = `reasoning.enabled:false`); `reasoning_effort` is removed so the
 * two never disagree.
 */
import { developerToSystem } from './chat-body.js';
import { chatUrl, normaliseChatBase } from './chat-url.js';
import { lowerEffort } from './effort.js';
import { bearerHeaders } from './headers.js';
import { keepsSystemInPlace } from './system-in-place.js';
import type { FinalizeContext, ProviderAdapter } from './types.js';

function finalize(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  developerToSystem(body);
  delete body.reasoning_effort;
  if (ctx.effort === undefined) return {};
  const previous = typeof body.reasoning === 'object' && body.reasoning !== null && !Array.isArray(body.reasoning) ? (body.reasoning as Record<string, unknown>) : {};
  // effort, max_tokens and enabled are alternatives; keep only unrelated keys such as `exclude`.
  const { effort: _e, max_tokens: _m, enabled: _en, ...rest } = previous;
  if (ctx.effort === 'none') {
    body.reasoning = { ...rest, enabled: false };
    return { effortSent: 'none' };
  }
  const effort = lowerEffort(ctx.effort, 'xhigh');
  body.reasoning = { ...rest, effort };
  return { effortSent: effort };
}

export const openrouterAdapter: ProviderAdapter = {
  kind: 'openrouter',
  dialect: 'chat',
  highestEffort: 'xhigh',
  accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: false },
  normaliseBaseUrl: normaliseChatBase,
  url: chatUrl,
  headers(credential) {
    // OpenRouter's optional app attribution headers.
    return { ...bearerHeaders(credential), 'x-title': 'svc-proxy' };
  },
  encodeOptions(model) {
    // OpenRouter fetches a PDF given by URL in file.file_data (openrouter.ai/docs, "PDF Inputs"),
    // and takes cache_control on content parts: Claude, Gemini and Alibaba's Qwen cache up to the
    // marked block ("Prompt Caching"; the others cache on their own), so a Messages client's
    // breakpoints keep their effect (and price). Its top-level `verbosity` is the client's text.verbosity.
    return { replayReasoning: ['openrouter', 'unsigned'], systemRole: 'system', systemInPlace: keepsSystemInPlace(model), maxTokensField: 'max_tokens', fileUrls: true, keepCacheControl: true, verbosity: true };
  },
  finalizeBody: finalize,
  normaliseModelId: (id) => id,
};
