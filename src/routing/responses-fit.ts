/**
 * Fitting a Responses body to the output allowance its upstream says it takes. A Messages client
 * converted for OpenAI carries its own `max_tokens` over (Claude Code: 32,000–128,000), and a model
 * that takes less (gpt-4.1 32,768, gpt-4o 16,384, o3 100,000), or a custom Responses server with a
 * small context, answers 400 "max_output_tokens is too large: … supports at most N output tokens"
 * or "maximum context length is C tokens …". The refusal is read as for the other dialects
 * (output-caps.ts) and the request is sent once more within it. Reasoning tokens count inside
 * `max_output_tokens` here, so there is no separate budget to lower.
 */
import type { ChatFit, Fitted } from './chat-fit.js';
import { askedOutput, capOutput } from './output-caps.js';
import type { UpstreamFits } from './upstream-fits.js';

type Obj = Record<string, unknown>;

const FIELDS: readonly string[] = ['max_output_tokens'];

/** Fit a Responses body, in place, to what this request learnt and what is known of its upstream. */
export function fitResponsesBody(fits: UpstreamFits, slug: string, model: string, body: Obj, fit: ChatFit | undefined): Fitted {
  const limit = fit?.outputCap ?? fits.outputLimit(slug, model);
  if (limit !== undefined) capOutput(body, limit, FIELDS);
  const fitted: Fitted = { reasoningStripped: false, body };
  const outputAsked = askedOutput(body, FIELDS);
  if (outputAsked !== undefined) fitted.outputAsked = outputAsked;
  return fitted;
}
