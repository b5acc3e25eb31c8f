/**
 * Output allowances an upstream refused, and the allowance it would take. Read for every dialect
 * (Messages: messages-fit.ts, Responses: responses-fit.ts); the Chat fields are here.
 *
 * Coding agents ask for large answers (Claude Code: 32,000–64,000 max_tokens) and many models
 * take less: DeepSeek's chat model answers 400 "Invalid max_tokens value, the valid range of
 * max_tokens is [1, 8192]", Groq "`max_tokens` must be less than or equal to `8192`", OpenAI
 * "supports at most 16384 completion tokens" (Responses: "output tokens"), Gemini 2.0 "the supported range is from 1
 * (inclusive) to 8193 (exclusive)", and servers with a small context (vLLM, DeepSeek)
 * "maximum context length is 131072 tokens … (123137 in the messages, 8192 in the completion)".
 * These are among the errors most reported against Claude Code routers, and the client has no
 * say in it. So such a 400 is read for the allowance the upstream states, and the request is sent
 * once more with it (chat-fit.ts). A model's own limit is remembered, per provider and model, so
 * later requests go out within it; a context-derived one holds for that request only (it depends
 * on the input), and is used only when it leaves room for a real answer — else the 400 stands (and
 * a group falls back, as for any prompt too long for a model).
 */

type Obj = Record<string, unknown>;

/** The fields a Chat body sets its output allowance with. */
const CHAT_FIELDS: readonly string[] = ['max_tokens', 'max_completion_tokens'];

/**
 * A context-derived allowance is worth a second request when it keeps at least this much, or half
 * of what was asked when that is less: a few hundred tokens are no answer for an agent's turn.
 */
export const MIN_CONTEXT_FIT = 1024;

export interface OutputFit {
  cap: number;
  /** The model's own limit (remembered), not one derived from this request's input. */
  modelLimit: boolean;
}

/** Upstream wordings that state the model's largest output allowance. */
const MODEL_LIMIT: readonly RegExp[] = [
  /valid range of max_tokens is \[\s*\d+\s*,\s*(\d+)\s*\]/i,
  // OpenAI: Chat "… completion tokens", Responses "max_output_tokens is too large: … output tokens"
  /supports at most (\d+) (?:completion|output) tokens/i,
  /max_(?:completion_)?tokens`? must be (?:less than or equal to|<=) `?(\d+)/i,
  /max_tokens: \d+ > (\d+), which is the maximum/i,
];

/** Google's wording gives the bound past the largest allowance ("from 1 (inclusive) to 8193 (exclusive)"). */
const EXCLUSIVE_LIMIT = /maxOutputTokens value of \d+ but the supported range is from \d+ \(inclusive\) to (\d+) \(exclusive\)/i;

/** Upstream wordings that state the context size and the input's share of it. */
const CONTEXT_LIMIT: readonly RegExp[] = [
  // OpenAI-style (DeepSeek, many compatible servers)
  /maximum context length is (?<context>\d+) tokens\. However, you requested \d+ tokens \((?<input>\d+) in the messages/i,
  // vLLM
  /maximum context length is (?<context>\d+) tokens and your request has (?<input>\d+) input tokens/i,
  // Anthropic: "input length and `max_tokens` exceed context limit: 188162 + 32000 > 200000, …"
  /input length and `?max_tokens`? exceed context limit: (?<input>\d+) \+ \d+ > (?<context>\d+)/i,
];

/** The allowance a refusal states, when it is below what was asked; undefined otherwise. */
export function outputFitFrom(message: string, asked: number): OutputFit | undefined {
  const google = EXCLUSIVE_LIMIT.exec(message);
  if (google) return modelFit(Number(google[1]) - 1, asked);
  for (const re of MODEL_LIMIT) {
    const m = re.exec(message);
    if (m) return modelFit(Number(m[1]), asked);
  }
  for (const re of CONTEXT_LIMIT) {
    const m = re.exec(message)?.groups;
    if (!m) continue;
    const cap = Number(m.context) - Number(m.input);
    return cap >= Math.min(asked / 2, MIN_CONTEXT_FIT) && cap < asked ? { cap, modelLimit: false } : undefined;
  }
  return undefined;
}

function modelFit(cap: number, asked: number): OutputFit | undefined {
  return cap > 0 && cap < asked ? { cap, modelLimit: true } : undefined;
}

/** The largest output allowance a body asks for in `fields` (a Chat body's by default), or undefined when it sets none. */
export function askedOutput(body: Obj, fields = CHAT_FIELDS): number | undefined {
  let asked: number | undefined;
  for (const field of fields) {
    const v = body[field];
    if (typeof v === 'number' && v > (asked ?? 0)) asked = v;
  }
  return asked;
}

/** Lower a body's output allowance in `fields` (a Chat body's by default) to `cap`, in place. */
export function capOutput(body: Obj, cap: number, fields = CHAT_FIELDS): void {
  for (const field of fields) {
    const v = body[field];
    if (typeof v === 'number' && v > cap) body[field] = cap;
  }
}
