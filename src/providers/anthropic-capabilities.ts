/**
 * What an entry of Anthropic's model list states a model can do (`capabilities`, PROTOCOLS.md
 * §4.1.2): whether it reads images and PDFs, whether it thinks and how, and which `output_config.effort`
 * levels it takes. Not every Claude does (claude-3-5-haiku neither reads images nor thinks), so a
 * tool told so from the list offers neither, and routing sends a model no level it lacks.
 * `capabilities` is null for a model Anthropic states nothing of, and a gateway speaking Messages
 * may leave it out or keep only part of it: what is not stated stays unknown.
 */
import type { EffortCapability, ModelCapabilities } from '@anthropic-ai/sdk/resources/models';
import type { Effort } from '../protocols/hub.js';
import { isObject } from '../util/is-object.js';
import type { ThinkingMode } from './anthropic-models.js';
import type { ModelInput } from './models.js';

export interface StatedCapabilities {
  inputs?: ModelInput[];
  reasons?: boolean;
  /** Levels `output_config.effort` takes; empty: the model takes no effort (its thinking may still be on). */
  efforts?: Effort[];
  thinking?: ThinkingMode;
  /** `thinking.types.disabled` stated false: thinking off is a 400 (Fable 5: cline/cline#13203). */
  refusesDisabled?: boolean;
  /** `thinking.types.between_tools` stated false: that type is a 400 ("false exactly when", ThinkingTypes). */
  refusesBetweenTools?: boolean;
}

/** The levels of `capabilities.effort`, lowest first (`xhigh` is null on a model from before it). */
const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const satisfies ReadonlyArray<keyof EffortCapability & Effort>;

type CapabilityName = keyof ModelCapabilities;

/** `capabilities[name].supported`, when the entry states it as a boolean. */
function supported(capabilities: Record<string, unknown>, name: CapabilityName): boolean | undefined {
  const entry = capabilities[name];
  return isObject(entry) && typeof entry.supported === 'boolean' ? entry.supported : undefined;
}

export function anthropicCapabilities(entry: Record<string, unknown>): StatedCapabilities {
  const capabilities = entry.capabilities;
  if (!isObject(capabilities)) return {};
  const stated: StatedCapabilities = {};
  const image = supported(capabilities, 'image_input');
  const pdf = supported(capabilities, 'pdf_input');
  // both or neither: a list that states one only leaves the other unknown, and a tool's setting covers both
  if (image !== undefined && pdf !== undefined) stated.inputs = [...(image ? ['image' as const] : []), ...(pdf ? ['pdf' as const] : [])];
  const thinks = supported(capabilities, 'thinking');
  if (thinks !== undefined) stated.reasons = thinks;
  const mode = thinks === false ? 'none' : thinks && thinkingMode(capabilities.thinking);
  if (mode) stated.thinking = mode;
  const off = thinks ? typeSupported(capabilities.thinking, 'disabled') : undefined;
  if (off !== undefined) stated.refusesDisabled = !off;
  // read whether or not the model thinks: unlike `disabled` (stated true of a model that does not
  // think), nothing makes `between_tools` so, and claude-3-5-haiku's list states it false
  const betweenTools = typeSupported(capabilities.thinking, 'between_tools');
  if (betweenTools !== undefined) stated.refusesBetweenTools = !betweenTools;
  const efforts = effortLevels(capabilities.effort);
  if (efforts) stated.efforts = efforts;
  return stated;
}

/**
 * `effort.{low,medium,high,xhigh,max}.supported` (EffortCapability in the API reference): the
 * levels stated true; none when `effort.supported` is false. Unknown when `supported` is not stated
 * as a boolean, or a level other than `xhigh` (null, or absent, on a list from before that level) is
 * left out.
 */
function effortLevels(effort: unknown): Effort[] | undefined {
  if (!isObject(effort) || typeof effort.supported !== 'boolean') return undefined;
  if (!effort.supported) return [];
  const levels: Effort[] = [];
  for (const level of EFFORT_LEVELS) {
    const entry = effort[level];
    if (isObject(entry) && typeof entry.supported === 'boolean') {
      if (entry.supported) levels.push(level);
    } else if (level !== 'xhigh' || (entry !== null && entry !== undefined)) return undefined;
  }
  return levels;
}

/** `thinking.types[type].supported` (ThinkingTypes in the API reference), when stated as a boolean. */
function typeSupported(thinking: unknown, type: 'disabled' | 'between_tools'): boolean | undefined {
  const types = isObject(thinking) ? thinking.types : undefined;
  const entry = isObject(types) ? types[type] : undefined;
  return isObject(entry) && typeof entry.supported === 'boolean' ? entry.supported : undefined;
}

/**
 * How a model that thinks takes it, from `thinking.types` (ThinkingTypes in the API reference, each
 * key read on its own): `adaptive-only` where the model accepts {type:"adaptive"} and is stated not to
 * accept {type:"enabled"} (Opus 4.7), `adaptive` where it accepts adaptive and maybe budgets too
 * (Sonnet 4.6 both, adaptive being the one Anthropic recommends), else `budget` where it accepts
 * {type:"enabled"} with budget_tokens (Haiku 4.5). Unknown when neither is stated true.
 */
function thinkingMode(thinking: unknown): ThinkingMode | undefined {
  const types = isObject(thinking) ? thinking.types : undefined;
  if (!isObject(types)) return undefined;
  const accepts = (type: string): boolean => isObject(types[type]) && types[type].supported === true;
  const refuses = (type: string): boolean => isObject(types[type]) && types[type].supported === false;
  if (accepts('adaptive')) return refuses('enabled') ? 'adaptive-only' : 'adaptive';
  if (accepts('enabled')) return 'budget';
  return undefined;
}
