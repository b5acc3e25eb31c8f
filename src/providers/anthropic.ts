/**
 * Anthropic Messages upstream (api.anthropic.com). Effort becomes each model's own controls:
 * adaptive thinking + output_config.effort on 4.6+ and newer lines, budget thinking before that.
 * A Messages client's own thinking settings pass through unchanged (only the effort level is
 * capped to what the model takes), but adaptive thinking asked of a model that has none, and a
 * budget asked of a model that takes only adaptive thinking.
 */
import { EFFORTS, type Effort } from '../protocols/hub.js';
import { claudeTraits, takesAdaptive, type ClaudeTraits } from './anthropic-models.js';
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
import { levelOfBudget, snapEffort } from './effort.js';
import { isObject } from '../util/is-object.js';
import type { ModelControls } from './stated-controls.js';
import type { FinalizeContext, ProviderAdapter } from './types.js';

function isEffort(v: unknown): v is Effort {
  return typeof v === 'string' && (EFFORTS as readonly string[]).includes(v);
}

function finalize(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  const traits = fitStatedControls(claudeTraits(ctx.model), ctx.stated);
  // `reasoning_effort` is how some Messages clients ask for a level; Anthropic has no such field.
  const askedByField = body.reasoning_effort !== undefined;
  delete body.reasoning_effort;
  const clientEffort = outputConfig(body)?.effort;
  const native = ctx.passthrough && ctx.from === 'messages' && (body.thinking !== undefined || clientEffort !== undefined);

  // Fable and Mythos think always and refuse thinking "off"; left out, thinking runs as the model's
  // default (adaptive), which is what such a model takes in its place (fableguide.com/errors).
  if (isObject(body.thinking) && body.thinking.type === 'disabled' && traits.alwaysThinks) delete body.thinking;
  let effortSent: string | undefined;
  let mapped = false;
  if (ctx.effort === 'none') {
    effortSent = applyClaudeEffort(body, 'none', traits);
  } else if (native && adaptiveNotTaken(body, traits)) {
    // Claude Code asks adaptive thinking of a name it does not know (every provider/model id); a
    // model without it refuses: "adaptive thinking is not supported on this model" (mnfst/llm-gateway#1928).
    // Its level, or high, adaptive's default, goes as a level goes to the model: a budget, or none.
    effortSent = applyClaudeEffort(body, isEffort(clientEffort) ? clientEffort : 'high', traits);
    mapped = true;
  } else if (native && budgetNotTaken(body, traits)) {
    // Opus 4.7 and later take adaptive thinking only: `enabled` with a budget is a 400 (Anthropic's
    // adaptive thinking page). A client that always sends budgets, or a group naming an older Claude
    // that maps to such a model, gets adaptive at the level the budget reaches, or its own level.
    const budget = (body.thinking as Record<string, unknown>).budget_tokens;
    const level = isEffort(clientEffort) ? clientEffort : typeof budget === 'number' ? levelOfBudget(budget) : 'high';
    effortSent = applyClaudeEffort(body, level, traits);
    mapped = true;
  } else if (native) {
    // The client's own thinking settings stay; only its effort level is capped for the model.
    // A level routing derived from a thinking budget is not added: the client did not name one.
    const asked = isEffort(clientEffort) ? clientEffort : askedByField ? ctx.effort : undefined;
    const level = asked ? snapEffort(asked, traits.efforts) : undefined;
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

function adaptiveNotTaken(body: Record<string, unknown>, traits: ClaudeTraits): boolean {
  return isObject(body.thinking) && body.thinking.type === 'adaptive' && !takesAdaptive(traits.thinking);
}

function budgetNotTaken(body: Record<string, unknown>, traits: ClaudeTraits): boolean {
  return isObject(body.thinking) && body.thinking.type === 'enabled' && traits.thinking === 'adaptive-only';
}

/**
 * What Anthropic's list states of the model rules over what is read from its id: the levels it
 * takes (`capabilities.effort`: a level the model lacks is snapped to one it has, or left out where
 * it takes none, as OpenAI's levels are, openai-models.ts, instead of a 400) and how it thinks
 * (`capabilities.thinking.types`: adaptive or budget, or not at all; whether it takes thinking off).
 */
function fitStatedControls(traits: ClaudeTraits, stated: ModelControls | undefined): ClaudeTraits {
  if (stated === undefined) return traits;
  const { efforts = traits.efforts, thinking = traits.thinking, alwaysThinks = traits.alwaysThinks } = stated;
  const same = efforts === traits.efforts && thinking === traits.thinking && alwaysThinks === traits.alwaysThinks;
  return same ? traits : { ...traits, efforts, thinking, alwaysThinks };
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
