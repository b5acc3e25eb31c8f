/**
 * Custom endpoint, format `b`: any Anthropic-Messages-compatible server the user added. From a
 * Messages client the body passes through as sent (thinking settings included); from a protocol A
 * client no effort is sent, since such servers' reasoning controls are unknown.
 */
import { claudeTraits } from './anthropic-models.js';
import { messagesHeaders } from './headers.js';
import { messagesUrl, normaliseMessagesBase } from './messages-url.js';
import { outputConfig, reasoningOff } from './messages-body.js';
import { loopbackRefusedHint } from './local-refused-hint.js';
import type { ProviderAdapter } from './types.js';

export const customMessagesAdapter: ProviderAdapter = {
  kind: 'custom-b',
  dialect: 'messages',
  highestEffort: null,
  accepts: { inputAudio: false, hostedTools: false, webSearch: false, transcriptions: false },
  normaliseBaseUrl: normaliseMessagesBase,
  url: messagesUrl,
  headers: messagesHeaders,
  encodeOptions(model) {
    return {
      replayReasoning: ['anthropic', 'anthropic_redacted'],
      defaultMaxTokens: claudeTraits(model).defaultMaxTokens,
      keepCacheControl: true,
    };
  },
  finalizeBody(body, ctx) {
    if (ctx.from !== 'messages') {
      delete body.reasoning_effort;
      reasoningOff(body);
      return {};
    }
    const sent = outputConfig(body)?.effort ?? body.reasoning_effort;
    return typeof sent === 'string' ? { effortSent: sent } : {};
  },
  normaliseModelId: (id) => id,
  refusedHint: loopbackRefusedHint,
};
