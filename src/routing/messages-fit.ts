/**
 * Fitting a Messages body to the output allowance its upstream says it takes. Claude Code asks
 * for what it knows of the model it thinks it talks to (32,000–128,000 max_tokens), so a group
 * that maps a Claude name to an older Claude, or a custom Messages endpoint with a smaller model,
 * answers 400 "max_tokens: 128001 > 64000, which is the maximum allowed number of output tokens
 * for …", or "input length and `max_tokens` exceed context limit: …". The refusal is read as for
 * Chat upstreams (output-caps.ts) and the request is sent once more within it.
 */
import type { ChatFit, Fitted } from './chat-fit.js';
import type { UpstreamFits } from './upstream-fits.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

/** Anthropic's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;

/** Fit a Messages body, in place, to what this request learnt and what is known of its upstream. */
export function fitMessagesBody(fits: UpstreamFits, slug: string, model: string, body: Obj, fit: ChatFit | undefined): Fitted {
  const limit = fit?.outputCap ?? fits.outputLimit(slug, model);
  if (limit !== undefined) capMessagesOutput(body, limit);
  const fitted: Fitted = { reasoningStripped: false, body };
  if (typeof body.max_tokens === 'number') fitted.outputAsked = body.max_tokens;
  return fitted;
}

/**
 * Lower max_tokens to `cap`. A thinking budget must stay below max_tokens: it becomes cap − 1,
 * as Claude Code itself sends it, and thinking goes off when that is under Anthropic's minimum.
 */
export function capMessagesOutput(body: Obj, cap: number): void {
  if (typeof body.max_tokens !== 'number' || body.max_tokens <= cap) return;
  body.max_tokens = cap;
  const thinking = body.thinking;
  if (!isObject(thinking) || thinking.type !== 'enabled' || typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens < cap) return;
  if (cap - 1 >= MIN_THINKING_BUDGET) body.thinking = { ...thinking, budget_tokens: cap - 1 };
  else delete body.thinking;
}

