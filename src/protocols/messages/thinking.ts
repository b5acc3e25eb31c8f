/**
 * Reasoning in Messages terms: the `thinking` request setting, effort, and thinking blocks with
 * their proof of origin (see reasoning-envelope.ts for how foreign origins ride in `signature`).
 */
import type { ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { Effort, ReasoningItem, ReasoningOrigin, ReasoningRequest } from '../hub.js';
import { badRequest } from '../errors.js';
import { packOrigin } from '../reasoning-envelope.js';
import { isObject, optNumber, type JsonObject } from './json.js';

const EFFORT_VALUES: ReadonlySet<string> = new Set(['none', 'low', 'medium', 'high', 'xhigh', 'max']);

/** A client's effort string, validated; `minimal` is read as `low`; null/absent → undefined. */
export function parseEffort(v: unknown, path: string): Effort | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === 'minimal') return 'low';
  if (typeof v === 'string' && EFFORT_VALUES.has(v)) return v as Effort;
  throw badRequest(
    'invalid_reasoning',
    `${path} must be one of none, minimal, low, medium, high, xhigh, max (got ${JSON.stringify(v)}).`,
    path,
  );
}

/** `thinking` + `output_config.effort` / `reasoning_effort` of a Messages request. */
export function decodeReasoning(body: JsonObject): ReasoningRequest | undefined {
  const out: ReasoningRequest = {};
  const outputConfig = isObject(body.output_config) ? body.output_config : undefined;
  // Both spellings are validated; the official field wins when a client sends both.
  const official = parseEffort(outputConfig?.effort, 'output_config.effort');
  const alias = parseEffort(body.reasoning_effort, 'reasoning_effort');
  const effort = official ?? alias;
  if (effort) out.effort = effort;

  const t = body.thinking;
  if (t !== undefined && t !== null) {
    if (!isObject(t)) throw badRequest('invalid_reasoning', 'thinking must be an object.', 'thinking');
    switch (t.type) {
      case 'enabled': {
        const budget = optNumber(t.budget_tokens, 'thinking.budget_tokens', 'invalid_reasoning');
        if (budget === undefined || !Number.isInteger(budget) || budget < 1) {
          throw badRequest('invalid_reasoning', 'thinking.budget_tokens must be a positive integer when thinking.type is "enabled".', 'thinking.budget_tokens');
        }
        out.thinkingType = 'enabled';
        out.budgetTokens = budget;
        break;
      }
      case 'adaptive':
      case 'disabled':
      case 'between_tools':
        out.thinkingType = t.type;
        break;
      default:
        throw badRequest('invalid_reasoning', 'thinking.type must be one of enabled, adaptive, disabled, between_tools.', 'thinking.type');
    }
    if (t.display !== undefined && t.display !== null) {
      if (t.display !== 'summarized' && t.display !== 'omitted' && t.display !== 'updates') {
        throw badRequest('invalid_reasoning', 'thinking.display must be "summarized", "omitted" or "updates".', 'thinking.display');
      }
      out.display = t.display;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Budget per effort when a budget-style `thinking` must be written without one (LiteLLM's defaults). */
const BUDGET_FOR_EFFORT: Record<Exclude<Effort, 'none'>, number> = {
  low: 1024,
  medium: 2048,
  high: 4096,
  xhigh: 8192,
  max: 16384,
};

/**
 * The hub's reasoning request written faithfully in Anthropic terms. The provider adapter fits it
 * to the concrete model afterwards (adaptive vs budget, effort levels the model lacks).
 */
export function encodeReasoning(r: ReasoningRequest | undefined): { thinking?: ThinkingConfigParam; effort?: Exclude<Effort, 'none'> } {
  if (!r || r.effort === 'none') return {};
  const effort = r.effort;
  // A Responses client asking for summaries wants to see reasoning text (Opus 4.7+ omit it by default).
  // `updates` needs its beta header, which a converted request does not carry: summarized is closest
  const display = r.display === 'updates' ? 'summarized' : (r.display ?? (r.summary ? 'summarized' : undefined));
  // set on the literal just built (a spread copy gaining a key gets a hidden class per call on Node 20)
  const withDisplay = <T extends object>(cfg: T): T => {
    if (display) (cfg as T & { display: string }).display = display;
    return cfg;
  };
  const type = r.thinkingType ?? (r.budgetTokens !== undefined ? 'enabled' : effort ? 'adaptive' : undefined);
  let thinking: ThinkingConfigParam | undefined;
  switch (type) {
    case 'enabled':
      thinking = withDisplay({ type: 'enabled' as const, budget_tokens: r.budgetTokens ?? BUDGET_FOR_EFFORT[effort ?? 'low'] });
      break;
    case 'adaptive':
      thinking = withDisplay({ type: 'adaptive' as const });
      break;
    case 'disabled':
      thinking = { type: 'disabled' };
      break;
    case 'between_tools':
      thinking = { type: 'between_tools' };
      break;
    default:
      thinking = undefined;
  }
  const out: { thinking?: ThinkingConfigParam; effort?: Exclude<Effort, 'none'> } = {};
  if (thinking) out.thinking = thinking;
  if (effort) out.effort = effort;
  return out;
}

export type ClientThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** Signature string that carries `origin` back through a Messages client. */
export function signatureFor(origin: ReasoningOrigin): string {
  return origin.kind === 'anthropic' ? origin.signature : packOrigin(origin);
}

/**
 * Signature of a thinking block shown without its text (`display: "omitted"`): unsigned reasoning
 * rides inside it, since some providers (DeepSeek, Kimi) want their reasoning back on the next turn.
 */
export function omittedSignatureFor(origin: ReasoningOrigin, text: string): string {
  return origin.kind === 'unsigned' ? packOrigin({ kind: 'unsigned', text }) : signatureFor(origin);
}

/**
 * How a reasoning item is shown to a Messages client, or null when it must not be shown
 * (unsigned reasoning with no text: nothing to show and nothing to prove). `omitText`: the
 * client asked `display: "omitted"`, so the block's text is empty.
 *
 * Signed reasoning without text (OpenAI's encrypted reasoning when no summary was asked, also
 * when the client sent no `thinking`) is still shown: a `thinking` block with empty text, as
 * Anthropic returns reasoning it does not show, so the client sends it back and OpenAI gets its
 * reasoning item before the call it led to. Not `redacted_thinking`: Claude Code's VS Code
 * extension shows that as "Unsupported content type" (cc-switch#5362). A client that turned
 * thinking off gets no block at all (ResponseContext.hideThinking).
 */
export function clientThinkingBlock(item: ReasoningItem, omitText = false): ClientThinkingBlock | null {
  const { origin, text } = item;
  if (origin.kind === 'anthropic_redacted') return { type: 'redacted_thinking', data: origin.data };
  if (origin.kind === 'unsigned' && text === '') return null;
  if (omitText) return { type: 'thinking', thinking: '', signature: omittedSignatureFor(origin, text) };
  return { type: 'thinking', thinking: text, signature: signatureFor(origin) };
}

/**
 * The block replayed to a Messages upstream, or null when the target cannot take this origin.
 * Only Anthropic's own proofs are meaningful to it; anything else is dropped, never made text.
 */
export function upstreamThinkingBlock(item: ReasoningItem, replay: ReadonlyArray<ReasoningOrigin['kind']>): ClientThinkingBlock | null {
  const { origin } = item;
  if (!replay.includes(origin.kind)) return null;
  if (origin.kind === 'anthropic') return { type: 'thinking', thinking: item.text, signature: origin.signature };
  if (origin.kind === 'anthropic_redacted') return { type: 'redacted_thinking', data: origin.data };
  return null;
}
