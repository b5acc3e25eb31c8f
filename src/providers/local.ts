/**
 * Local model servers (Ollama, LM Studio, llama.cpp, vLLM): Chat Completions without auth.
 * Effort is sent as given; OpenAI-only parameters are dropped and `max_tokens` is used, since
 * these servers reject or ignore the rest (PROTOCOLS.md §5.5).
 */
import { developerToSystem, dropOpenAiOnlyParams, mirrorReasoningContent, mirrorReasoningToContent, setReasoningEffort, useMaxTokensField } from './chat-body.js';
import { chatUrl, normaliseLocalBase } from './chat-url.js';
import { fitModelFamilyHistory } from './model-family-history.js';
import { chatDecodeOptions } from './think-prefill.js';
import { bearerHeaders } from './headers.js';
import { localRefusedHint } from './local-refused-hint.js';
import { keepsSystemInPlace } from './system-in-place.js';
import type { ProviderAdapter } from './types.js';

export const localAdapter: ProviderAdapter = {
  kind: 'local',
  dialect: 'chat',
  highestEffort: null,
  accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: false },
  normaliseBaseUrl: normaliseLocalBase,
  url: (baseUrl, op) => chatUrl(normaliseLocalBase(baseUrl), op),
  headers: () => bearerHeaders(undefined),
  encodeOptions(model) {
    return { replayReasoning: ['unsigned'], systemRole: 'system', systemInPlace: keepsSystemInPlace(model), maxTokensField: 'max_tokens' };
  },
  decodeOptions: chatDecodeOptions,
  finalizeBody(body, ctx) {
    developerToSystem(body);
    dropOpenAiOnlyParams(body);
    useMaxTokensField(body);
    mirrorReasoningContent(body);
    // our own encoding writes `reasoning` only; a client's body keeps the fields it chose
    if (!ctx.passthrough) mirrorReasoningToContent(body);
    fitModelFamilyHistory(body, ctx.model);
    return setReasoningEffort(body, ctx.effort);
  },
  normaliseModelId: (id) => id,
  refusedHint: localRefusedHint,
};
