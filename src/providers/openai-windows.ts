/**
 * The input OpenAI takes for a model, from the figures its model pages state (OpenAI's model list
 * states none). A page gives the context window and the max output tokens; the window holds both,
 * so the input a request can always send is the window less the output allowance: "Maximum input
 * tokens: 272,000" beside "400,000 context window" and "128,000 max output tokens" on the
 * gpt-5-nano page, and GPT-5 refuses more ("Input tokens exceed the configured limit of 272,000
 * tokens"). That is the figure a tool compacting by its window must be given: told 400,000, Claude
 * Code would fill the prompt past what OpenAI takes.
 *
 * Where OpenAI's own page was not read, a model is here only when at least two independent gateway
 * or vendor docs pages (not OpenAI's) state the same window and the same max output; a model they
 * disagree on (gpt-5.5: 1,000,000 / 272,000 on Vercel's page, 1,050,000 / 128,000 on Oxen's), one
 * only a single page states (gpt-4.1-nano, the gpt-5.x-codex ids) and any other id stay unknown.
 */
import { OPENAI_ID_DATE } from './openai-id-date.js';

export interface DocumentedLimits {
  contextWindow: number;
  maxOutput: number;
}

interface Documented extends DocumentedLimits {
  family: RegExp;
}

const DOCUMENTED: readonly Documented[] = [
  // developers.openai.com/api/docs/models/gpt-5-mini (snapshot gpt-5-mini-2025-08-07)
  { family: new RegExp(`^gpt-5-mini${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5-nano (snapshot gpt-5-nano-2025-08-07; "Maximum input tokens: 272,000")
  { family: new RegExp(`^gpt-5-nano${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5-codex
  { family: new RegExp(`^gpt-5-codex${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5-pro (snapshot gpt-5-pro-2025-10-06): most of its window is output
  { family: new RegExp(`^gpt-5-pro${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 272_000 },
  // developers.openai.com/api/docs/models/gpt-5.1 (zh-Hans page; snapshot gpt-5.1-2025-11-13)
  { family: new RegExp(`^gpt-5\\.1${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5.4-pro (snapshot gpt-5.4-pro-2026-03-05)
  { family: new RegExp(`^gpt-5\\.4-pro${OPENAI_ID_DATE}$`), contextWindow: 1_050_000, maxOutput: 128_000 },
  // developers.openai.com/api/docs/models/gpt-5.6-luna, rechecked: "1,050,000 context window", "128,000 max output
  // tokens" (Vercel's gpt-5.6-luna-fast page and Runware's agree; Cursor's 272k is the window Cursor itself uses)
  { family: new RegExp(`^gpt-5\\.6-luna${OPENAI_ID_DATE}$`), contextWindow: 1_050_000, maxOutput: 128_000 },
  // Gateway/vendor pages, not OpenAI's, from here on.
  // gpt-5: vercel.com/ai-gateway/models/gpt-5-fast.md (the same model served faster); docs.uipath.com
  // autopilot "Supported models and limits" (GPT-5 family: 400K, up to 128K)
  { family: new RegExp(`^gpt-5${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // gpt-5.2: vercel.com/ai-gateway/models/openai/gpt-5.2-fast.md; docs.oxen.ai …/gpt-5-2-2025-12-11 (Venice's
  // 256K / 64K are what Venice serves it with)
  { family: new RegExp(`^gpt-5\\.2${OPENAI_ID_DATE}$`), contextWindow: 400_000, maxOutput: 128_000 },
  // gpt-5.4: vercel.com/ai-gateway/models/gpt-5.4.md; docs.oxen.ai …/gpt-5-4-2026-03-05; getmaxim.ai bifrost model library
  { family: new RegExp(`^gpt-5\\.4${OPENAI_ID_DATE}$`), contextWindow: 1_050_000, maxOutput: 128_000 },
  // gpt-4.1: vercel.com/ai-gateway/models/gpt-4.1-fast.md; contextwindows.dev/models/gpt-4-1
  { family: new RegExp(`^gpt-4\\.1${OPENAI_ID_DATE}$`), contextWindow: 1_047_576, maxOutput: 32_768 },
  // gpt-4.1-mini: vercel.com/ai-gateway/models/gpt-4.1-mini-fast.md; getmaxim.ai bifrost model library (1048K / 33K, rounded)
  { family: new RegExp(`^gpt-4\\.1-mini${OPENAI_ID_DATE}$`), contextWindow: 1_047_576, maxOutput: 32_768 },
  // gpt-4o: docs.uipath.com autopilot (gpt-4o-2024-11-20); Azure AI Foundry fine-tune models table (2024-08-06).
  // The first snapshot, gpt-4o-2024-05-13, wrote at most 4,096 tokens: only the two named snapshots are here.
  { family: /^gpt-4o(?:-2024-08-06|-2024-11-20)?$/, contextWindow: 128_000, maxOutput: 16_384 },
  // gpt-4o-mini: vercel.com/ai-gateway/models/gpt-4o-mini-fast.md; Azure AI Foundry table (2024-07-18)
  { family: new RegExp(`^gpt-4o-mini${OPENAI_ID_DATE}$`), contextWindow: 128_000, maxOutput: 16_384 },
  // o3: vercel.com/ai-gateway/models/o3-fast.md; pub.dev package agentic's ChatModel.openaiO3 docs
  { family: new RegExp(`^o3${OPENAI_ID_DATE}$`), contextWindow: 200_000, maxOutput: 100_000 },
  // o4-mini: vercel.com/ai-gateway/models/o4-mini.md; blog.laozhang.ai's o4-mini API guide
  { family: new RegExp(`^o4-mini${OPENAI_ID_DATE}$`), contextWindow: 200_000, maxOutput: 100_000 },
];

/** The documented window and max output of a model, or undefined for one not here. */
export function openaiDocumentedLimits(model: string): DocumentedLimits | undefined {
  const id = model.toLowerCase();
  return DOCUMENTED.find((d) => d.family.test(id));
}

/** Input tokens the model takes (its documented window less its max output), or undefined for a model not here. */
export function openaiInputWindow(model: string): number | undefined {
  const found = openaiDocumentedLimits(model);
  return found && found.contextWindow - found.maxOutput;
}
