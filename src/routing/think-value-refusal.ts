/**
 * Ollama's refusal of a `think` value a model does not take. Its OpenAI layer turns the effort
 * (`reasoning_effort` or `reasoning.effort`) "low"/"medium"/"high" into that level and "none" into
 * false; a model that only thinks or not answers 400 `think value "medium" is not supported for
 * this model` (ollama server/routes.go: levels are for gpt-oss), and gpt-oss takes only the levels.
 * Each refused form has one the model takes:
 * - a level refused → the boolean true, which over this layer is no effort at all (Ollama turns
 *   thinking on by default for a model that can think): the effort fields are dropped
 *   (refused-params.ts), and remembered like any refused parameter;
 * - a boolean refused → the nearest level (THINK_LEVELS, snapped as any effort; effort-refusal.ts).
 * Either way the next body cannot carry the refused form, so it is retried at most once.
 */
import type { Effort } from '../protocols/hub.js';

const THINK_VALUE_REFUSED = /\bthink value "?([\w-]+)"? is not supported/i;

/** The levels gpt-oss takes as Ollama's `think`. */
const THINK_LEVELS: readonly Effort[] = ['low', 'medium', 'high'];

/** What form of `think` the refusal `message` refused, or undefined when it is not such a refusal. */
export function refusedThinkForm(message: string): 'level' | 'boolean' | undefined {
  const value = THINK_VALUE_REFUSED.exec(message)?.[1]?.toLowerCase();
  if (value === undefined) return undefined;
  return value === 'true' || value === 'false' ? 'boolean' : 'level';
}

/** The levels to snap the effort to when a boolean `think` was refused; undefined otherwise. */
export function thinkLevelsFrom(message: string): readonly Effort[] | undefined {
  return refusedThinkForm(message) === 'boolean' ? THINK_LEVELS : undefined;
}
