/**
 * What a Claude model accepts, read from its id. PROTOCOLS.md §4.1.2 / §7: adaptive thinking from
 * the 4.6 generation (Opus/Sonnet), Mythos, Fable and the 5.x lines; effort levels per generation;
 * budget thinking before that; no thinking at all on 3.5 and older. Unknown Claude-looking ids are
 * read as the newest generation (new models keep the newest controls).
 */
import type { Effort } from '../protocols/hub.js';

export type ClaudeLine = 'opus' | 'sonnet' | 'haiku' | 'mythos' | 'fable' | 'unknown';

/**
 * `adaptive`: thinking {type:"adaptive"} + output_config.effort, {type:"enabled",budget_tokens} still
 * taken (Opus and Sonnet 4.6); `adaptive-only`: adaptive alone, `enabled` being a 400 (Opus 4.7,
 * Mythos, Fable: Anthropic's adaptive thinking page); `budget`: {type:"enabled",budget_tokens} alone;
 * `none`: no thinking.
 */
export type ThinkingMode = 'adaptive-only' | 'adaptive' | 'budget' | 'none';

export function takesAdaptive(mode: ThinkingMode): boolean {
  return mode === 'adaptive' || mode === 'adaptive-only';
}

export interface ClaudeTraits {
  line: ClaudeLine;
  thinking: ThinkingMode;
  /** Levels output_config.effort takes (empty = send no effort). */
  efforts: readonly Effort[];
  /**
   * `thinking: {type: "disabled"}` is a 400 ('"thinking.type.disabled" is not supported for this
   * model.': Fable 5 in cline/cline#13203; Opus 4.7, Mythos and Fable on Bedrock's adaptive thinking
   * page, PROTOCOLS.md §4.1.2): there thinking is off when it is left out. Unset: as the thinking mode
   * says (an adaptive-only model refuses it); the model list's `thinking.types.disabled` sets it.
   */
  refusesDisabled?: boolean;
  /**
   * `thinking: {type: "between_tools"}` is a 400. No id rule: which models take it is known only
   * from the model list's `thinking.types.between_tools`; unset, it goes as sent.
   */
  refusesBetweenTools?: boolean;
  /** Default max_tokens when the client gave none (Anthropic requires one). */
  defaultMaxTokens: number;
  /** Temperature, top_p and top_k are rejected (Opus 4.7+ and newer lines). */
  noSampling: boolean;
  /** temperature and top_p cannot both be sent (4.5 / 4.6 generation). */
  exclusiveTemperatureTopP: boolean;
  /** The id looked like a Claude model at all (false: a foreign model behind a Messages endpoint). */
  recognised: boolean;
}

const ALL_LEVELS: readonly Effort[] = ['low', 'medium', 'high', 'xhigh', 'max'];
const UP_TO_MAX_NO_XHIGH: readonly Effort[] = ['low', 'medium', 'high', 'max'];
const UP_TO_HIGH: readonly Effort[] = ['low', 'medium', 'high'];
const NONE: readonly Effort[] = [];

/** max_tokens for ids that are not Claude at all (custom Messages endpoints). */
export const FOREIGN_DEFAULT_MAX_TOKENS = 8192;

function parseLine(tokens: string[]): ClaudeLine {
  for (const t of tokens) {
    if (t === 'opus' || t === 'sonnet' || t === 'haiku' || t === 'mythos' || t === 'fable') return t;
  }
  return 'unknown';
}

/** Version numbers in the id: short numeric tokens (dates like 20250514 are skipped). */
function parseVersion(tokens: string[]): { major?: number; minor: number } {
  const nums = tokens.filter((t) => /^\d{1,2}$/.test(t)).map(Number);
  return { major: nums[0], minor: nums[1] ?? 0 };
}

const NEWEST: Omit<ClaudeTraits, 'line' | 'recognised'> = {
  thinking: 'adaptive-only',
  efforts: ALL_LEVELS,
  defaultMaxTokens: 64000,
  noSampling: true,
  exclusiveTemperatureTopP: true,
};

/** Traits per model id, memoised: the same few ids come back on every request. */
const memo = new Map<string, ClaudeTraits>();
const MEMO_LIMIT = 512;

export function claudeTraits(model: string): ClaudeTraits {
  let traits = memo.get(model);
  if (!traits) {
    traits = readTraits(model);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(model, traits);
  }
  return traits;
}

function readTraits(model: string): ClaudeTraits {
  const id = model.toLowerCase().replace(/^anthropic\//, '');
  const tokens = id.split(/[-.@:_/]/);
  const line = parseLine(tokens);
  const { major, minor } = parseVersion(tokens);
  const recognised = id.includes('claude') || line !== 'unknown';
  if (!recognised) {
    return { line, thinking: 'budget', efforts: NONE, defaultMaxTokens: FOREIGN_DEFAULT_MAX_TOKENS, noSampling: false, exclusiveTemperatureTopP: false, recognised };
  }
  if (major === undefined || major >= 5) {
    return { line, recognised, ...NEWEST };
  }
  if (major <= 2) {
    return { line, recognised, thinking: 'none', efforts: NONE, defaultMaxTokens: 4096, noSampling: false, exclusiveTemperatureTopP: false };
  }
  if (major === 3) {
    // 3.7 Sonnet has budget thinking and 64k output; 3.5 has 8k; 3.0 has 4k.
    if (minor >= 7) return { line, recognised, thinking: 'budget', efforts: NONE, defaultMaxTokens: 64000, noSampling: false, exclusiveTemperatureTopP: false };
    return { line, recognised, thinking: 'none', efforts: NONE, defaultMaxTokens: minor >= 5 ? 8192 : 4096, noSampling: false, exclusiveTemperatureTopP: false };
  }
  // major === 4
  if (minor >= 7) return { line, recognised, ...NEWEST };
  if (minor === 6) {
    return { line, recognised, thinking: 'adaptive', efforts: UP_TO_MAX_NO_XHIGH, defaultMaxTokens: 64000, noSampling: false, exclusiveTemperatureTopP: true };
  }
  if (minor === 5) {
    return {
      line,
      recognised,
      thinking: 'budget',
      efforts: line === 'opus' ? UP_TO_HIGH : NONE,
      defaultMaxTokens: 64000,
      noSampling: false,
      exclusiveTemperatureTopP: true,
    };
  }
  // Claude 4 / 4.1: Opus caps output at 32k, Sonnet at 64k.
  return { line, recognised, thinking: 'budget', efforts: NONE, defaultMaxTokens: line === 'opus' ? 32000 : 64000, noSampling: false, exclusiveTemperatureTopP: false };
}
