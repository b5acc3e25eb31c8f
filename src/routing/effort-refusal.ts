/**
 * Effort levels a model said it takes. The adapters know the levels of the models of their day
 * (openai-models.ts) and snap to them, and local and custom Chat servers get the level asked; but a
 * model may take fewer, and the refusal lists what would do:
 * - OpenAI: "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported
 *   values are: 'none', 'low', 'medium', and 'high'." (openai-agents-python#2089, opencode#4451);
 * - vLLM and SGLang (pydantic): "{'type': 'literal_error', 'loc': ('body', 'reasoning_effort'),
 *   'msg': "Input should be 'low', 'medium' or 'high'", 'input': 'xhigh', …}" (CLIProxyAPI#1572,
 *   deer-flow#1673), for whatever model they serve;
 * - others: "Unsupported thinking_effort='minimal'; supported values are ['high', 'low', 'max']";
 * - Ollama's OpenAI layer, for any model: "invalid reasoning value: 'max' (must be \"high\",
 *   \"medium\", \"low\", or \"none\")" (ollama openai/openai.go), its levels double-quoted.
 * The request is then sent once more at the nearest listed level (snapEffort), and the levels are
 * remembered for that provider and model.
 */
import type { Effort } from '../protocols/hub.js';
import { isEffort } from '../providers/effort.js';

/** A list of quoted words: 'a', 'b' or 'c' / 'a', 'b', and 'c' / ['a', 'b']. */
const LIST = String.raw`((?:'[\w-]+'(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)?)+)`;
const LISTED = new RegExp(String.raw`(?:supported values are:?\s*\[?|input should be\s+)` + LIST, 'i');
/** OpenAI's wording names the model rather than the parameter; the others name the effort. */
const ABOUT_EFFORT = /is not supported with the '[^']*' model|effort/i;
const QUOTED = /'([\w-]+)'/g;
const OLLAMA_LISTED = /invalid reasoning value: '[\w-]+' \(must be ((?:"[\w-]+"(?:,\s*(?:or\s+)?|\s+or\s+)?)+)\)/i;
const DOUBLE_QUOTED = /"([\w-]+)"/g;

/** The levels a refusal of the effort `sent` lists, or undefined when it is not such a refusal. */
export function effortLevelsFrom(message: string, sent: string): Effort[] | undefined {
  if (!message.includes(`'${sent}'`)) return undefined;
  const m = LISTED.exec(message);
  const ollama = m ? undefined : OLLAMA_LISTED.exec(message);
  const listed = m && ABOUT_EFFORT.test(message) ? [...m[1]!.matchAll(QUOTED)] : ollama ? [...ollama[1]!.matchAll(DOUBLE_QUOTED)] : undefined;
  if (!listed) return undefined;
  const levels = listed.map((q) => q[1]!).filter(isEffort);
  return levels.length > 0 && !levels.includes(sent as Effort) ? levels : undefined;
}
