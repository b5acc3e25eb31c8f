/**
 * A Messages client's own thinking fitted to how the model takes it, for Anthropic and a custom
 * Messages gateway alike (each passes the model's traits, from its id or its list): adaptive to a
 * model without it, a budget to a model that takes adaptive only or no thinking, "disabled" to a
 * model that refuses it (an adaptive-only one, off when thinking is left out), "between_tools" to a
 * model whose list says it refuses it (thinking off, as asked, without the progress notes). Each is a
 * 400 upstream as sent. Anything else the client sent stays.
 */
import type { Effort } from '../protocols/hub.js';
import { takesAdaptive, type ClaudeTraits } from './anthropic-models.js';
import { applyClaudeEffort, fixSampling, outputConfig } from './messages-body.js';
import { isEffort, levelOfBudget } from './effort.js';
import { isObject } from '../util/is-object.js';
import type { FinalizeContext } from './types.js';

type Body = Record<string, unknown>;

/**
 * The level a Messages client named: `output_config.effort`, or `reasoning_effort` as routing read
 * it (`minimal` as low). Not a level routing derived from a thinking budget: the client named none.
 */
export function levelNamed(body: Body, ctx: FinalizeContext): Effort | undefined {
  const asked = outputConfig(body)?.effort;
  if (isEffort(asked)) return asked;
  return body.reasoning_effort !== undefined ? ctx.effort : undefined;
}

/**
 * Fit the client's thinking to the model. Returns the value sent when it was converted (its
 * sampling fitted too, as for a converted request); undefined when the thinking goes as sent.
 */
export function fitClientThinking(body: Body, traits: ClaudeTraits, named: Effort | undefined): { effortSent?: string } | undefined {
  const thinking = isObject(body.thinking) ? body.thinking : undefined;
  if (thinking === undefined) return undefined;
  // Such a model thinks only when adaptive is sent (PROTOCOLS.md §7.2): left out, thinking is off.
  if (thinking.type === 'disabled' && (traits.refusesDisabled ?? traits.thinking === 'adaptive-only')) {
    delete body.thinking;
    return undefined;
  }
  // between_tools is thinking off with progress notes; where refused, off without them is closest
  if (thinking.type === 'between_tools' && traits.refusesBetweenTools === true) {
    delete body.thinking;
    return undefined;
  }
  let level: Effort;
  if (thinking.type === 'adaptive' && !takesAdaptive(traits.thinking)) {
    // Claude Code asks adaptive of every provider/model id; high is adaptive's own default level.
    level = named ?? 'high';
  } else if (thinking.type === 'enabled' && traits.thinking === 'none') {
    // a model without thinking refuses a budget as it refuses adaptive: it goes without
    level = named ?? 'high';
  } else if (thinking.type === 'enabled' && traits.thinking === 'adaptive-only') {
    const budget = thinking.budget_tokens;
    level = named ?? (typeof budget === 'number' ? levelOfBudget(budget) : 'high');
  } else {
    return undefined;
  }
  const effortSent = applyClaudeEffort(body, level, traits);
  fixSampling(body, traits);
  return effortSent === undefined ? {} : { effortSent };
}
