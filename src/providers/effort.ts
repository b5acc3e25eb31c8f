/**
 * Effort arithmetic shared by adapters and routing: ordering, lowering to a ceiling, snapping to
 * the levels a model supports, and Anthropic budget <-> level conversion.
 */
import { EFFORTS, type Effort } from '../protocols/hub.js';

export function isEffort(v: unknown): v is Effort {
  return typeof v === 'string' && (EFFORTS as readonly string[]).includes(v);
}

export function effortRank(effort: Effort): number {
  return EFFORTS.indexOf(effort);
}

/** Lower `effort` to `highest` when above it; `null` ceiling = sent as given. */
export function lowerEffort(effort: Effort, highest: Effort | null): Effort {
  if (highest === null) return effort;
  return effortRank(effort) > effortRank(highest) ? highest : effort;
}

/**
 * The level to send to a model that supports only `supported`: the highest supported level not
 * above the request, else (the model's floor is higher) its lowest level. Undefined when the model
 * takes no effort at all.
 */
export function snapEffort(effort: Effort, supported: readonly Effort[]): Effort | undefined {
  if (supported.length === 0) return undefined;
  const asked = effortRank(effort);
  let best: Effort | undefined;
  let lowest: Effort | undefined;
  for (const level of supported) {
    const rank = effortRank(level);
    if (rank <= asked && (best === undefined || rank > effortRank(best))) best = level;
    if (lowest === undefined || rank < effortRank(lowest)) lowest = level;
  }
  return best ?? lowest;
}

/** Anthropic thinking budget for a level on budget-only models (LiteLLM's defaults). */
export const THINKING_BUDGETS: Readonly<Record<Exclude<Effort, 'none'>, number>> = {
  low: 1024,
  medium: 2048,
  high: 4096,
  xhigh: 8192,
  max: 16384,
};

/**
 * The level whose THINKING_BUDGETS entry a budget reaches (the inverse of that map; low below it):
 * a client's budget asked of a Claude that takes only adaptive thinking and a level. On the scale of
 * the budgets this proxy sends a Claude, so a level sent as a budget comes back as that level.
 */
export function levelOfBudget(budgetTokens: number): Exclude<Effort, 'none'> {
  let level: Exclude<Effort, 'none'> = 'low';
  for (const [name, budget] of Object.entries(THINKING_BUDGETS) as Array<[Exclude<Effort, 'none'>, number]>) if (budgetTokens >= budget) level = name;
  return level;
}

/**
 * Anthropic `budget_tokens` read as a level for targets that are not Claude (merge.dev convention).
 * Coarser than levelOfBudget on purpose: Claude Code's own budgets (16k–32k when it thinks) read as
 * high there, not the xhigh or max that such models answer far slower and bill far more for.
 */
export function effortFromBudget(budgetTokens: number): Effort {
  if (budgetTokens < 4096) return 'low';
  if (budgetTokens < 16384) return 'medium';
  return 'high';
}
