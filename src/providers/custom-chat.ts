/**
 * Custom endpoint, format `a`: any Chat Completions server the user added. Effort is sent as the
 * client gave it, never lowered; transcriptions are forwarded.
 */
import { developerToSystem, mirrorReasoningContent, setReasoningEffort } from './chat-body.js';
import { chatUrl, normaliseChatBase } from './chat-url.js';
import { fitModelFamilyHistory } from './model-family-history.js';
import { chatDecodeOptions } from './think-prefill.js';
import { bearerHeaders } from './headers.js';
import { loopbackRefusedHint } from './local-refused-hint.js';
import { keepsSystemInPlace } from './system-in-place.js';
import type { ProviderAdapter } from './types.js';

export const customChatAdapter: ProviderAdapter = {
  kind: 'custom-a',
  dialect: 'chat',
  highestEffort: null,
  accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: true },
  normaliseBaseUrl: normaliseChatBase,
  url: chatUrl,
  headers: (credential) => bearerHeaders(credential),
  encodeOptions(model) {
    return { replayReasoning: ['unsigned'], systemRole: 'system', systemInPlace: keepsSystemInPlace(model), maxTokensField: 'max_tokens' };
  },
  decodeOptions: chatDecodeOptions,
  finalizeBody(body, ctx) {
    developerToSystem(body);
    mirrorReasoningContent(body);
    fitModelFamilyHistory(body, ctx.model);
    return setReasoningEffort(body, ctx.effort);
  },
  normaliseModelId: (id) => id,
  refusedHint: loopbackRefusedHint,
};
