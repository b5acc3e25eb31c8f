/**
 * Reasoning effort policy: read what the client asked for, validate it once for every target,
 * and lower it to each target's ceiling.
 *
 * Validation runs on the raw body (before any codec) so a passthrough request and a converted one
 * obey the same rule: one of none|minimal|low|medium|high|xhigh|max (`minimal` is read as `low`),
 * anything else → 400 invalid_reasoning before anything is sent.
 */
import type { Dialect, Effort } from '../protocols/hub.js';
import { badRequest } from '../protocols/errors.js';
import { effortFromBudget, isEffort } from '../providers/effort.js';
import { isObject } from '../util/is-object.js';

export { lowerEffort } from '../providers/effort.js';

export interface EffortAsked {
  /** Normalised effort, when the client named one. */
  effort?: Effort;
  /** What the client wrote, for the log (`minimal`, or `thinking:enabled/4096` for budgets). */
  label?: string;
}

/**
 * The raw effort field of a dialect: chat `reasoning_effort` (else OpenRouter's
 * `reasoning.effort`), responses `reasoning.effort`, messages `output_config.effort` or
 * `reasoning_effort` — the fields the codecs read.
 */
function rawEffortField(body: Record<string, unknown>, dialect: Dialect): { value: unknown; param: string } {
  if (dialect === 'chat') {
    if (body.reasoning_effort !== undefined && body.reasoning_effort !== null) return { value: body.reasoning_effort, param: 'reasoning_effort' };
    const reasoning = body.reasoning;
    if (isObject(reasoning)) {
      if (reasoning.effort !== undefined && reasoning.effort !== null) return { value: reasoning.effort, param: 'reasoning.effort' };
      if (reasoning.enabled === false) return { value: 'none', param: 'reasoning.enabled' };
    }
    return { value: undefined, param: 'reasoning_effort' };
  }
  if (dialect === 'responses') {
    const reasoning = body.reasoning;
    const value = isObject(reasoning) ? reasoning.effort : undefined;
    return { value, param: 'reasoning.effort' };
  }
  const config = body.output_config;
  const fromConfig = isObject(config) ? config.effort : undefined;
  if (fromConfig !== undefined && fromConfig !== null) return { value: fromConfig, param: 'output_config.effort' };
  return { value: body.reasoning_effort, param: 'reasoning_effort' };
}

/** Throws 400 invalid_reasoning for any value outside the effort scale. */
export function readEffort(body: Record<string, unknown>, dialect: Dialect): EffortAsked {
  const { value, param } = rawEffortField(body, dialect);
  if (value === undefined || value === null) {
    return dialect === 'messages' ? { label: thinkingLabel(body.thinking) } : {};
  }
  if (typeof value === 'string') {
    if (value === 'minimal') return { effort: 'low', label: value };
    if (param === 'reasoning.enabled') return { effort: 'none', label: 'reasoning.enabled:false' };
    if (isEffort(value)) return { effort: value, label: value };
  }
  throw badRequest(
    'invalid_reasoning',
    `Invalid ${param} ${JSON.stringify(value)}: use one of none, minimal, low, medium, high, xhigh, max.`,
    param,
  );
}

/**
 * A Messages client that set thinking without naming an effort, bound for a non-Messages target:
 * the budget maps to a level (<4096 low, <16384 medium, else high); disabled → none, and
 * between_tools too (thinking off; its progress notes between tool calls are Claude's alone);
 * adaptive → the model's default (undefined).
 */
export function effortFromThinking(thinking: unknown): Effort | undefined {
  if (!isObject(thinking)) return undefined;
  if (thinking.type === 'disabled' || thinking.type === 'between_tools') return 'none';
  if (thinking.type !== 'enabled') return undefined;
  const budget = thinking.budget_tokens;
  return typeof budget === 'number' && Number.isFinite(budget) ? effortFromBudget(budget) : undefined;
}

function thinkingLabel(thinking: unknown): string | undefined {
  if (!isObject(thinking) || typeof thinking.type !== 'string') return undefined;
  return typeof thinking.budget_tokens === 'number' ? `thinking:${thinking.type}/${thinking.budget_tokens}` : `thinking:${thinking.type}`;
}

