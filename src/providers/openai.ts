/**
 * OpenAI upstream, spoken in the Responses API for every client dialect (only Responses returns
 * encrypted reasoning for stateless replay). Effort goes to `reasoning.effort`; `none` has no
 * off switch here, so the field is left out (gpt-5.1, 5.2 and 5.4 then do not reason), or is
 * `minimal` where that is the least a model reasons (gpt-5).
 */
import { mayContain } from '../protocols/lazy-json.js';
import { LOGPROBS_INCLUDE } from '../protocols/responses/request-encode.js';
import { joinUrl, trimBase } from './base-url.js';
import { lowerEffort, snapEffort } from './effort.js';
import { bearerHeaders } from './headers.js';
import { openaiEffortLevels, openaiOffEffort, openaiSampling } from './openai-models.js';
import { fitFunctionSchema } from './openai-tool-schema.js';
import { fitLongCallIds } from './openai-call-ids.js';
import type { FinalizeContext, ProviderAdapter, UpstreamOperation } from './types.js';
import { isObject } from '../util/is-object.js';

function removeEffort(body: Record<string, unknown>): void {
  const r = body.reasoning;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return;
  const reasoning = r as Record<string, unknown>;
  delete reasoning.effort;
  if (Object.keys(reasoning).length === 0) delete body.reasoning;
}

/**
 * Non-reasoning models (gpt-4o, gpt-4.1, …) refuse every reasoning setting ("Unsupported parameter:
 * 'reasoning.summary' is not supported with the 'gpt-4.1-2025-04-14' model.", roackb2/heddle#227;
 * 'reasoning.effort' likewise, BoundaryML/baml#2708) and encrypted reasoning ("Encrypted content is
 * not supported with this model.", pydantic/pydantic-ai#2865). Codex sends both whenever it reasons,
 * and a group's fallback may take that request to gpt-4.1.
 */
function dropReasoningSettings(body: Record<string, unknown>): void {
  delete body.reasoning;
  removeInclude(body, 'reasoning.encrypted_content');
}

/**
 * …and the reasoning items of a history another model wrote ("Reasoning input items can only be
 * provided to a reasoning or computer use model", openai/openai-agents-python#569): Codex's own,
 * after a switch from gpt-5 or a group's fallback. The bytes are asked first, so a client's input
 * without them stays unparsed.
 */
function dropReasoningItems(body: Record<string, unknown>): void {
  if (!mayContain(body, 'input', 'reasoning') || !Array.isArray(body.input)) return;
  const kept = body.input.filter((item) => !(isObject(item) && item.type === 'reasoning'));
  if (kept.length !== body.input.length) body.input = kept;
}

function removeInclude(body: Record<string, unknown>, entry: string): void {
  if (!Array.isArray(body.include) || !body.include.includes(entry)) return;
  const include = body.include.filter((v) => v !== entry);
  if (include.length > 0) body.include = include;
  else delete body.include;
}

/**
 * With `store: false` nothing is kept upstream, yet an input item that names an `id` is looked up:
 * "Item with id '…' not found. Items are not persisted when `store` is set to false" (reported for
 * `msg_…`, `fc_…` and `rs_…` items sent back as they came: langchain-ai/langchain#38372,
 * jrkropp/open-webui-developer-toolkit#715). An inline item's id adds nothing its content does not
 * say, so it goes, and so do the ids of our own converted answers, which OpenAI never issued. A
 * reasoning item keeps its id when it carries encrypted content (that pair is how reasoning is
 * replayed); without it, it is a bare reference and is removed.
 */
function dropUnstoredItemIds(body: Record<string, unknown>): void {
  if (body.store !== false || !mayContain(body, 'input', 'id') || !Array.isArray(body.input)) return;
  let changed = false;
  const kept: unknown[] = [];
  for (const item of body.input) {
    if (!isObject(item) || (item.type === 'reasoning' ? typeof item.encrypted_content === 'string' : item.id === undefined)) {
      kept.push(item);
      continue;
    }
    changed = true;
    if (item.type === 'reasoning') continue; // a bare reference: nothing to replay
    const { id: _id, ...rest } = item;
    kept.push(rest);
  }
  if (changed) body.input = kept;
}

/**
 * Reasoning models refuse sampling parameters: gpt-5 and o-series take only the default value,
 * later gpt-5.x take them only while not reasoning ("Unsupported parameter: 'temperature' is not
 * supported with this model."). Claude Code sends temperature 1, Cline or aider 0–0.7; the model
 * cannot honour them, so going without loses nothing but the 400. Passthrough too: whether they
 * are taken depends on the effort the proxy sends (`none` left out, levels snapped) and on the
 * model a group picks, neither of which the client sees. Ids not known to reason keep them.
 */
function fitSampling(body: Record<string, unknown>, model: string): void {
  const rule = openaiSampling(model);
  if (rule === 'always') return;
  const r = body.reasoning;
  const effort = isObject(r) ? r.effort : undefined;
  // no effort sent = the model's default, which is none for the models that take sampling at all
  if (rule === 'unreasoned' && (effort === undefined || effort === null || effort === 'none')) return;
  delete body.temperature;
  delete body.top_p;
  delete body.top_logprobs;
  // logprobs come with the sampling parameters or not at all ("temperature, top_p and logprobs
  // when reasoning effort is none"): the answer then has none, as any refused parameter goes
  removeInclude(body, LOGPROBS_INCLUDE);
}

/** A converted request's function tools in the form OpenAI validates (a client's own Responses tools stay its own). */
function fitToolSchemas(body: Record<string, unknown>): void {
  if (!Array.isArray(body.tools)) return;
  for (const tool of body.tools) {
    if (isObject(tool) && tool.type === 'function') tool.parameters = fitFunctionSchema(tool.parameters);
  }
}

function applyEffort(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  const levels = openaiEffortLevels(ctx.model);
  if (levels.length === 0) {
    dropReasoningSettings(body);
    dropReasoningItems(body);
    return {};
  }
  if (ctx.effort === undefined) return {};
  const level = ctx.effort === 'none' ? openaiOffEffort(ctx.model) : snapEffort(lowerEffort(ctx.effort, 'xhigh'), levels);
  if (!level) {
    removeEffort(body);
    return {};
  }
  const r = body.reasoning;
  if (typeof r === 'object' && r !== null && !Array.isArray(r)) (r as Record<string, unknown>).effort = level;
  else body.reasoning = { effort: level };
  return { effortSent: level };
}

/**
 * OpenAI takes no output allowance under 16 tokens ("integer_below_min_value"), where Anthropic
 * takes 1: Claude Code sends max_tokens 1 for its checks. A converted request gets the least OpenAI
 * takes; a Responses client's own body is OpenAI's already and is left as it is.
 */
const OPENAI_MIN_OUTPUT_TOKENS = 16;

function finalize(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  if (!ctx.passthrough && typeof body.max_output_tokens === 'number' && body.max_output_tokens < OPENAI_MIN_OUTPUT_TOKENS) body.max_output_tokens = OPENAI_MIN_OUTPUT_TOKENS;
  dropUnstoredItemIds(body);
  // a converted body's history is fitted as it is encoded
  if (ctx.passthrough) fitLongCallIds(body);
  const sent = applyEffort(body, ctx);
  fitSampling(body, ctx.model);
  if (!ctx.passthrough) fitToolSchemas(body);
  return sent;
}

function url(baseUrl: string, op: UpstreamOperation): string {
  const base = trimBase(baseUrl);
  switch (op) {
    case 'generate':
      return joinUrl(base, '/responses');
    case 'count_tokens':
      return joinUrl(base, '/responses/input_tokens');
    case 'models':
      return joinUrl(base, '/models');
    case 'transcriptions':
      return joinUrl(base, '/audio/transcriptions');
  }
}

export const openaiAdapter: ProviderAdapter = {
  kind: 'openai',
  dialect: 'responses',
  highestEffort: 'xhigh',
  accepts: { inputAudio: false, hostedTools: true, webSearch: true, transcriptions: false },
  normaliseBaseUrl: trimBase,
  url,
  headers: (credential) => bearerHeaders(credential),
  encodeOptions() {
    return { replayReasoning: ['openai'] };
  },
  finalizeBody: finalize,
  normaliseModelId: (id) => id,
};
