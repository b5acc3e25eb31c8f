/**
 * Fitting a request to what its Chat upstream says it takes. Some refusals state what would do:
 * a smaller output allowance (output-caps.ts), no reasoning on replayed messages
 * (reasoning-fields.ts), no parameter it names (refused-params.ts), system text where the chat
 * template takes it (system-placement.ts). Such a 400 (or 422) teaches the request a fit and it is sent again; what holds
 * beyond that request — a model's own output limit, an endpoint that refuses reasoning fields, the
 * parameters a model does not take — is
 * kept while the daemon runs, so later requests go out fitted from the start.
 */
import { askedOutput, capOutput, outputFitFrom } from './output-caps.js';
import type { UpstreamFits } from './upstream-fits.js';
import { refusesReasoningFields, stripReasoningFields } from './reasoning-fields.js';
import { dropParams, refusedParams } from './refused-params.js';
import { placeSystemMessages, systemPlacementFrom, type SystemPlacement } from './system-placement.js';

type Obj = Record<string, unknown>;

/** What one request learnt from its upstream's refusals. */
export interface ChatFit {
  outputCap?: number;
  noReasoning?: boolean;
  /** Top-level parameters to send without. */
  withoutParams?: string[];
  system?: SystemPlacement;
}

/** What a fitted Chat body asks of its upstream. */
export interface Fitted {
  /** Its output allowance, when it sets one. */
  outputAsked?: number;
  /** Plain reasoning was removed from its replayed messages. */
  reasoningStripped: boolean;
  /** Top-level parameters it goes without (none: absent). */
  droppedParams?: string[];
  /** The body as sent, to read the parameters a refusal names. */
  body: Obj;
}

/** Fit a Chat body, in place, to what this request learnt and what is known of its upstream. */
export function fitChatBody(fits: UpstreamFits, slug: string, model: string, body: Obj, fit: ChatFit | undefined): Fitted {
  const reasoningStripped = (fit?.noReasoning === true || fits.refusesReasoning(slug)) && stripReasoningFields(body);
  const known = fits.refusedParams(slug, model);
  const without = fit?.withoutParams ? [...(known ?? []), ...fit.withoutParams] : known;
  const droppedParams = without ? dropParams(body, without) : [];
  const placement = fit?.system ?? fits.systemPlacement(slug, model);
  if (placement !== undefined) placeSystemMessages(body, placement);
  const limit = fit?.outputCap ?? fits.outputLimit(slug, model);
  if (limit !== undefined) capOutput(body, limit);
  const fitted: Fitted = { reasoningStripped, body };
  const outputAsked = askedOutput(body);
  if (outputAsked !== undefined) fitted.outputAsked = outputAsked;
  if (droppedParams.length > 0) fitted.droppedParams = droppedParams;
  return fitted;
}

/**
 * What a Chat upstream's 400 teaches, added to `fit` (and to `fits` where it holds beyond this
 * request): 'reasoning' when the request should go without reasoning fields (worth sending only
 * if it had some), 'output' when within a smaller allowance, 'params' when without parameters it
 * named, 'system' when with its system text moved, undefined when the refusal says nothing that can be fitted.
 */
export function learnFromRefusal(
  fits: UpstreamFits,
  slug: string,
  model: string,
  message: string,
  sent: Fitted,
  fit: ChatFit,
): 'reasoning' | 'output' | 'params' | 'system' | undefined {
  if (!fit.noReasoning && refusesReasoningFields(message)) {
    fits.setRefusesReasoning(slug);
    fit.noReasoning = true;
    return 'reasoning';
  }
  const placement = systemPlacementFrom(message);
  if (placement !== undefined && fit.system !== placement) {
    fits.setSystemPlacement(slug, model, placement);
    fit.system = placement;
    return 'system';
  }
  if (learnOutputFit(fits, slug, model, message, sent, fit)) return 'output';
  const params = refusedParams(message, sent.body);
  if (params.length === 0) return undefined;
  fits.addRefusedParams(slug, model, params);
  fit.withoutParams = [...(fit.withoutParams ?? []), ...params];
  return 'params';
}

/**
 * A smaller output allowance, when the refusal states one below what was sent (any dialect);
 * a model's own limit is remembered in `fits`. False when it states none.
 */
export function learnOutputFit(fits: UpstreamFits, slug: string, model: string, message: string, sent: Pick<Fitted, 'outputAsked'>, fit: Pick<ChatFit, 'outputCap'>): boolean {
  const cap = sent.outputAsked === undefined ? undefined : outputFitFrom(message, sent.outputAsked);
  if (!cap) return false;
  if (cap.modelLimit) fits.setOutputLimit(slug, model, cap.cap);
  fit.outputCap = cap.cap;
  return true;
}
