/**
 * Chat upstreams that refuse a top-level parameter the request carries.
 *
 * Every Chat server takes a different subset of OpenAI's parameters, and the strict ones answer
 * 400 or 422 for the rest: xAI "Model grok-4 does not support parameter reasoningEffort", Groq
 * "reasoning_effort must be one of none or default", Azure "Unrecognized request argument
 * supplied: reasoning", Mistral's pydantic "body.stream_options: Extra inputs are not permitted"
 * (also for presence_penalty, store, max_completion_tokens), OpenAI "Unsupported parameter: …".
 * Clients send these parameters whatever the model (Claude Code's thinking becomes an effort, the
 * converted path asks for streamed usage), so a refusal that names one gets the request once more
 * without it, and the model is remembered (chat-fit.ts).
 *
 * Only parameters a request can lose without changing what the answer must be: tuning, effort and
 * reporting. `max_completion_tokens` is renamed to `max_tokens` instead; the messages, tools, tool
 * choice, response format and stop sequences are never touched.
 */
import { refusedThinkForm } from './think-value-refusal.js';

type Obj = Record<string, unknown>;

const DROPPABLE: ReadonlySet<string> = new Set([
  'reasoning_effort',
  'reasoning',
  'thinking',
  'verbosity',
  'stream_options',
  'parallel_tool_calls',
  'temperature',
  'top_p',
  'top_k',
  'min_p',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'repetition_penalty',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'user',
  'store',
  'metadata',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
  'prediction',
  'modalities',
]);

/** Refused under one name, taken under another. */
const RENAMED: Readonly<Record<string, string>> = { max_completion_tokens: 'max_tokens' };

/** How servers say a parameter is not taken (or not with that value). */
const REFUSAL =
  /unsupported|not supported|does not support|unrecognized|unknown (?:parameter|field|argument|name)|not allowed|not permitted|extra inputs|extra_forbidden|must be one of|out of range|invalid (?:value|parameter|argument)|no longer supported|only the default/i;

const NAME = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * A refusal that names no field, only what the effort fields ask for: Ollama answers a model
 * without the thinking capability 400 "\"llama3.1:8b\" does not support thinking" when the request
 * carries reasoning_effort (or reasoning), which its OpenAI layer turns into `think`.
 */
const THINKING_REFUSED = /does not support thinking/i;
/** Also a `think` level refused by a model that takes only on or off (think-value-refusal.ts). */
const EFFORT_FIELDS = ['reasoning_effort', 'reasoning'];

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The parameters of `body` (top level) that the refusal `message` names, in the order it names
 * them; empty when it names none or does not read as a refusal of one.
 */
export function refusedParams(message: string, body: Obj): string[] {
  if (!REFUSAL.test(message)) return [];
  const found: string[] = [];
  for (const match of message.matchAll(NAME)) {
    const word = match[0];
    const name = snakeCase(word);
    if (!(DROPPABLE.has(name) || name in RENAMED) || !(name in body) || found.includes(name)) continue;
    if (name === word && !name.includes('_') && !namedAsParameter(message, match.index)) continue;
    found.push(name);
  }
  if (THINKING_REFUSED.test(message) || refusedThinkForm(message) === 'level') {
    for (const name of EFFORT_FIELDS) if (name in body && !found.includes(name)) found.push(name);
  }
  return found;
}

/**
 * A plain word (user, store, seed, temperature …) counts only where it reads as a parameter's
 * name — quoted, a path's last step, or after "parameter"/"argument" — not in "role 'user' …".
 */
function namedAsParameter(message: string, at: number): boolean {
  const before = message.slice(Math.max(0, at - 24), at);
  if (/(?:parameter|argument|field|supplied):?\s*$/i.test(before)) return true;
  const open = before.at(-1);
  if (open === '.') return /body\.$/.test(before);
  if (open !== "'" && open !== '"' && open !== '`') return false;
  // the quoted word is a role or a value when a role/value word precedes it
  return !/(?:role|value|type)\s*['"`]$/i.test(before);
}

/** Drop (or rename) these parameters of a Chat body, in place; returns the ones it had. */
export function dropParams(body: Obj, names: Iterable<string>): string[] {
  const dropped: string[] = [];
  for (const name of names) {
    if (!(name in body)) continue;
    const renamed = RENAMED[name];
    if (renamed !== undefined && body[renamed] === undefined) body[renamed] = body[name];
    delete body[name];
    dropped.push(name);
  }
  return dropped;
}
