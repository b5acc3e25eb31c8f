/**
 * Anthropic Messages upstream (api.anthropic.com). Effort becomes each model's own controls:
 * adaptive thinking + output_config.effort on 4.6+ and newer lines, budget thinking before that.
 * A Messages client's own thinking settings pass through unchanged (only the effort level is
 * capped to what the model takes), but where the model refuses them (client-thinking-fit.ts).
 */
import { claudeTraits, type ClaudeTraits } from './anthropic-models.js';
import { messagesHeaders } from './headers.js';
import { messagesUrl, normaliseMessagesBase } from './messages-url.js';
import {
  applyClaudeEffort,
  downgradeForcedToolChoice,
  fixSampling,
  outputConfig,
  removeOutputEffort,
  setOutputEffort,
} from './messages-body.js';
import { snapEffort } from './effort.js';
import { fitClientThinking, levelNamed } from './client-thinking-fit.js';
import type { ModelControls } from './stated-controls.js';
import type { FinalizeContext, ProviderAdapter } from './types.js';

function finalize(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  const traits = fitStatedControls(claudeTraits(ctx.model), ctx.stated);
  // `reasoning_effort` is how some Messages clients ask for a level; Anthropic has no such field.
  const named = levelNamed(body, ctx);
  delete body.reasoning_effort;
  const clientEffort = outputConfig(body)?.effort;
  const native = ctx.passthrough && ctx.from === 'messages' && (body.thinking !== undefined || clientEffort !== undefined);

  let effortSent: string | undefined;
  let mapped = false;
  const fitted = native && ctx.effort !== 'none' ? fitClientThinking(body, traits, named) : undefined;
  if (ctx.effort === 'none') {
    effortSent = applyClaudeEffort(body, 'none', traits);
  } else if (fitted) {
    effortSent = fitted.effortSent;
  } else if (native) {
    // The client's own thinking settings stay; only its effort level is capped for the model.
    const level = named ? snapEffort(named, traits.efforts) : undefined;
    if (level) setOutputEffort(body, level);
    else removeOutputEffort(body);
    effortSent = level;
  } else if (ctx.effort) {
    effortSent = applyClaudeEffort(body, ctx.effort, traits);
    mapped = true;
  }
  if (!ctx.passthrough || mapped) fixSampling(body, traits);
  downgradeForcedToolChoice(body);
  return effortSent === undefined ? {} : { effortSent };
}

/**
 * What Anthropic's list states of the model rules over what is read from its id: the levels it
 * takes (`capabilities.effort`: a level the model lacks is snapped to one it has, or left out where
 * it takes none, as OpenAI's levels are, openai-models.ts, instead of a 400) and how it thinks
 * (`capabilities.thinking.types`: adaptive or budget, or not at all; whether it takes thinking off).
 */
function fitStatedControls(traits: ClaudeTraits, stated: ModelControls | undefined): ClaudeTraits {
  if (stated === undefined) return traits;
  const { efforts = traits.efforts, thinking = traits.thinking, refusesDisabled = traits.refusesDisabled, refusesBetweenTools = traits.refusesBetweenTools } = stated;
  const same = efforts === traits.efforts && thinking === traits.thinking && refusesDisabled === traits.refusesDisabled && refusesBetweenTools === traits.refusesBetweenTools;
  return same ? traits : { ...traits, efforts, thinking, refusesDisabled, refusesBetweenTools };
}

export const anthropicAdapter: ProviderAdapter = {
  kind: 'anthropic',
  dialect: 'messages',
  highestEffort: 'max',
  accepts: { inputAudio: false, hostedTools: false, webSearch: true, transcriptions: false },
  normaliseBaseUrl: normaliseMessagesBase,
  url: messagesUrl,
  headers: messagesHeaders,
  encodeOptions(model) {
    return {
      replayReasoning: ['anthropic', 'anthropic_redacted'],
      defaultMaxTokens: claudeTraits(model).defaultMaxTokens,
      keepCacheControl: true,
      // Chat and Responses clients (Cursor, Codex, Zed) mark nothing: a coding agent resends the same
      // long prefix every turn, which Anthropic bills in full unless it is cached (CLIProxyAPI#5557).
      automaticCache: true,
    };
  },
  finalizeBody: finalize,
  normaliseModelId: (id) => id,
};
