/**
 * Custom endpoint, format `b`: any Anthropic-Messages-compatible server the user added. From a
 * Messages client the body passes through as sent (thinking settings included, but where the
 * server's list says the model refuses them: client-thinking-fit.ts); from a protocol A
 * client no effort is sent, since such servers' reasoning controls are unknown — unless the
 * server's model list states them as Anthropic's does (`capabilities`: how the model thinks, the
 * effort levels it takes), which the catalog reads from any Messages list: then the level goes as
 * it goes to Anthropic.
 */
import { claudeTraits, type ClaudeTraits } from './anthropic-models.js';
import { messagesHeaders } from './headers.js';
import { messagesUrl, normaliseMessagesBase } from './messages-url.js';
import { applyClaudeEffort, downgradeForcedToolChoice, fixSampling, outputConfig, reasoningOff } from './messages-body.js';
import { fitClientThinking, levelNamed } from './client-thinking-fit.js';
import { loopbackRefusedHint } from './local-refused-hint.js';
import type { FinalizeContext, ProviderAdapter } from './types.js';

/** The model's traits with how it thinks as the gateway's list states it; none where it states no thinking mode. */
function listedTraits(ctx: FinalizeContext): ClaudeTraits | undefined {
  const thinking = ctx.stated?.thinking;
  if (thinking === undefined) return undefined;
  const traits = claudeTraits(ctx.model);
  const stated = ctx.stated;
  return { ...traits, thinking, efforts: stated?.efforts ?? [], refusesDisabled: stated?.refusesDisabled ?? traits.refusesDisabled, refusesBetweenTools: stated?.refusesBetweenTools };
}

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
      const traits = listedTraits(ctx);
      if (traits === undefined || ctx.effort === undefined) {
        reasoningOff(body);
        return {};
      }
      const effortSent = applyClaudeEffort(body, ctx.effort, traits);
      fixSampling(body, traits);
      downgradeForcedToolChoice(body);
      return effortSent === undefined ? {} : { effortSent };
    }
    const listed = listedTraits(ctx);
    const fitted = listed === undefined ? undefined : fitClientThinking(body, listed, levelNamed(body, ctx));
    if (fitted) return fitted;
    const sent = outputConfig(body)?.effort ?? body.reasoning_effort;
    return typeof sent === 'string' ? { effortSent: sent } : {};
  },
  normaliseModelId: (id) => id,
  refusedHint: loopbackRefusedHint,
};
