/**
 * Edits of a Messages request body shared by the Messages-speaking adapters: reasoning controls
 * per Claude model, and the fixes that keep Anthropic from rejecting a converted request.
 */
import type { Effort } from '../protocols/hub.js';
import { takesAdaptive, type ClaudeTraits } from './anthropic-models.js';
import { snapEffort, THINKING_BUDGETS } from './effort.js';
import { isObject } from '../util/is-object.js';

type Body = Record<string, unknown>;

export function outputConfig(body: Body): Record<string, unknown> | undefined {
  return isObject(body.output_config) ? body.output_config : undefined;
}

/** Remove output_config.effort (and output_config itself when nothing else is left in it). */
export function removeOutputEffort(body: Body): void {
  const oc = outputConfig(body);
  if (!oc) return;
  delete oc.effort;
  if (Object.keys(oc).length === 0) delete body.output_config;
}

export function setOutputEffort(body: Body, effort: string): void {
  const oc = outputConfig(body);
  if (oc) oc.effort = effort;
  else body.output_config = { effort };
}

/** Reasoning fully off: no thinking, no effort (the model's default). */
export function reasoningOff(body: Body): void {
  delete body.thinking;
  removeOutputEffort(body);
}

export function thinkingIsOn(body: Body): boolean {
  const t = body.thinking;
  return isObject(t) && (t.type === 'enabled' || t.type === 'adaptive');
}

/** Forced tool use with thinking on is a 400 upstream: fall back to `auto`, keeping the parallel flag. */
export function downgradeForcedToolChoice(body: Body): void {
  if (!thinkingIsOn(body)) return;
  const tc = body.tool_choice;
  if (isObject(tc) && (tc.type === 'any' || tc.type === 'tool')) {
    const next: Record<string, unknown> = { type: 'auto' };
    if (tc.disable_parallel_tool_use !== undefined) next.disable_parallel_tool_use = tc.disable_parallel_tool_use;
    body.tool_choice = next;
  }
}

/**
 * Map a level to the model's own controls. Returns the value sent, for the request log:
 * the effort level, or `budget_tokens:N` on budget-only models.
 */
export function applyClaudeEffort(body: Body, effort: Effort, traits: ClaudeTraits): string | undefined {
  if (effort === 'none') {
    reasoningOff(body);
    return 'none';
  }
  const previous = isObject(body.thinking) ? body.thinking : undefined;
  const display = previous && typeof previous.display === 'string' ? previous.display : undefined;
  if (takesAdaptive(traits.thinking)) {
    body.thinking = display ? { type: 'adaptive', display } : { type: 'adaptive' };
    const level = snapEffort(effort, traits.efforts);
    if (level) setOutputEffort(body, level);
    else removeOutputEffort(body);
    return level;
  }
  if (traits.thinking === 'budget') {
    const budget = THINKING_BUDGETS[effort];
    body.thinking = display ? { type: 'enabled', budget_tokens: budget, display } : { type: 'enabled', budget_tokens: budget };
    raiseMaxTokensAbove(body, budget, traits.defaultMaxTokens);
    const level = snapEffort(effort, traits.efforts);
    if (level) setOutputEffort(body, level);
    else removeOutputEffort(body);
    return level ? `${level} (budget_tokens:${budget})` : `budget_tokens:${budget}`;
  }
  // No thinking on this model: nothing to send.
  delete body.thinking;
  removeOutputEffort(body);
  return undefined;
}

/**
 * max_tokens counts thinking: keep the client's answer allowance on top of the budget, within the
 * model's output cap.
 */
export function raiseMaxTokensAbove(body: Body, budget: number, cap: number): void {
  const current = typeof body.max_tokens === 'number' ? body.max_tokens : cap;
  if (current > budget) return;
  body.max_tokens = Math.max(budget + 1, Math.min(budget + current, Math.max(cap, budget + 1024)));
}

/** Sampling parameters Claude rejects in a converted request (thinking on, or per model). */
export function fixSampling(body: Body, traits: ClaudeTraits): void {
  if (traits.noSampling) {
    delete body.temperature;
    delete body.top_p;
    delete body.top_k;
    return;
  }
  if (thinkingIsOn(body)) {
    // Thinking is incompatible with temperature/top_k changes; top_p only 0.95–1.
    delete body.temperature;
    delete body.top_k;
    if (typeof body.top_p === 'number' && body.top_p < 0.95) delete body.top_p;
  }
  if (typeof body.temperature === 'number' && body.temperature > 1) body.temperature = 1;
  if (traits.exclusiveTemperatureTopP && body.temperature !== undefined && body.top_p !== undefined) delete body.top_p;
}
