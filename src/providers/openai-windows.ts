/**
 * The input OpenAI takes for a model, from the figures its model pages state (OpenAI's model list
 * states none). A page gives the context window and the max output tokens; the window holds both,
 * so the input a request can always send is the window less the output allowance: "Maximum input
 * tokens: 272,000" beside "400,000 context window" and "128,000 max output tokens" on the
 * gpt-5-nano page, and GPT-5 refuses more ("Input tokens exceed the configured limit of 272,000
 * tokens"). That is the figure a tool compacting by its window must be given: told 400,000, Claude
 * Code would fill the prompt past what OpenAI takes. Only models whose page was read are here; any
 * other id (gpt-5, gpt-5.4 …) stays unknown.
 */
const DATE = '(?:-\\d{4}-\\d{2}-\\d{2})?';

interface Documented {
  family: RegExp;
  contextWindow: number;
  maxOutput: number;
}

const DOCUMENTED: readonly Documented[] = [
  // developers.openai.com/api/docs/models/gpt-5-mini (snapshot gpt-5-mini-2025-08-07)
  { family: new RegExp(`^gpt-5-mini${DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5-nano (snapshot gpt-5-nano-2025-08-07; "Maximum input tokens: 272,000")
  { family: new RegExp(`^gpt-5-nano${DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5-codex
  { family: new RegExp(`^gpt-5-codex${DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5-pro (snapshot gpt-5-pro-2025-10-06): most of its window is output
  { family: new RegExp(`^gpt-5-pro${DATE}$`), contextWindow: 400_000, maxOutput: 272_000 },
  // developers.openai.com/api/docs/models/gpt-5.4-pro (snapshot gpt-5.4-pro-2026-03-05)
  { family: new RegExp(`^gpt-5\\.4-pro${DATE}$`), contextWindow: 1_050_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5.6-luna
  { family: new RegExp(`^gpt-5\\.6-luna${DATE}$`), contextWindow: 1_050_000, maxOutput: 128_000 },
];

/** Input tokens the model takes (its documented window less its max output), or undefined for a model whose page was not read. */
export function openaiInputWindow(model: string): number | undefined {
  const id = model.toLowerCase();
  const found = DOCUMENTED.find((d) => d.family.test(id));
  return found && found.contextWindow - found.maxOutput;
}
