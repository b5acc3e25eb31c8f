/**
 * Effort levels a model said it takes. The adapters know the levels of the models of their day
 * (openai-models.ts) and snap to them, but a newer model may take fewer, and OpenAI then answers
 * 400 "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values
 * are: 'none', 'low', 'medium', and 'high'." (openai-agents-python#2089, opencode#4451). Such a
 * refusal lists what would do, so the request is sent once more at the nearest listed level
 * (snapEffort), and the levels are remembered for that provider and model.
 */
import { EFFORTS, type Effort } from '../protocols/hub.js';

const REFUSED = /'([\w-]+)'(?: is not supported with the '[^']*' model)?\. Supported values are: ([^\n]*)/i;
const QUOTED = /'([\w-]+)'/g;

function isEffort(value: string): value is Effort {
  return (EFFORTS as readonly string[]).includes(value);
}

/** The levels a refusal of the effort `sent` lists, or undefined when it is not such a refusal. */
export function effortLevelsFrom(message: string, sent: string): Effort[] | undefined {
  const m = REFUSED.exec(message);
  if (!m || m[1] !== sent) return undefined;
  const levels = [...m[2]!.matchAll(QUOTED)].map((q) => q[1]!).filter(isEffort);
  return levels.length > 0 && !levels.includes(sent as Effort) ? levels : undefined;
}
