/**
 * Local model servers (Ollama, LM Studio, llama.cpp, vLLM): Chat Completions without auth.
 * Effort is sent as given; OpenAI-only parameters are dropped and `max_tokens` is used, since
 * these servers reject or ignore the rest (PROTOCOLS.md §5.5).
 */
import { developerToSystem, dropOpenAiOnlyParams, mirrorReasoningContent, setReasoningEffort, useMaxTokensField } from './chat-body.js';
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
    // llama-server (and the Qwen3/gpt-oss templates it renders) reads replayed reasoning only from
    // reasoning_content, vLLM ≥0.16 and Ollama only from reasoning: each ignores the other
    return { replayReasoning: ['unsigned'], reasoningContentToo: true, systemRole: 'system', systemInPlace: keepsSystemInPlace(model), maxTokensField: 'max_tokens' };
  },
  decodeOptions: chatDecodeOptions,
  finalizeBody(body, ctx) {
    developerToSystem(body);
    dropOpenAiOnlyParams(body);
    useMaxTokensField(body);
    // a converted body has both fields already (reasoningContentToo): only a client's may lack one
    if (ctx.passthrough) mirrorReasoningContent(body);
    fitModelFamilyHistory(body, ctx.model);
    return setReasoningEffort(body, ctx.effort);
  },
  normaliseModelId: (id) => id,
  refusedHint: localRefusedHint,
};
