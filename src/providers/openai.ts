/**
 * OpenAI upstream, spoken in the Responses API for every client dialect (only Responses returns
 * encrypted reasoning for stateless replay). Effort goes to `reasoning.effort`; `none` has no
 * off switch here, so the field is left out and the model uses its default.
 */
import { joinUrl, trimBase } from './base-url.js';
import { lowerEffort, snapEffort } from './effort.js';
import { bearerHeaders } from './headers.js';
import { openaiEffortLevels } from './openai-models.js';
import type { FinalizeContext, ProviderAdapter, UpstreamOperation } from './types.js';

function removeEffort(body: Record<string, unknown>): void {
  const r = body.reasoning;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return;
  const reasoning = r as Record<string, unknown>;
  delete reasoning.effort;
  if (Object.keys(reasoning).length === 0) delete body.reasoning;
}

/** Non-reasoning models (gpt-4o, gpt-4.1, …) reject reasoning settings and encrypted reasoning. */
function dropReasoningSettings(body: Record<string, unknown>): void {
  delete body.reasoning;
  if (Array.isArray(body.include)) {
    const include = body.include.filter((v) => v !== 'reasoning.encrypted_content');
    if (include.length > 0) body.include = include;
    else delete body.include;
  }
}

function finalize(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  const levels = openaiEffortLevels(ctx.model);
  if (levels.length === 0 && !ctx.passthrough) {
    dropReasoningSettings(body);
    return {};
  }
  if (ctx.effort === undefined) return {};
  const level = ctx.effort === 'none' ? undefined : snapEffort(lowerEffort(ctx.effort, 'xhigh'), levels);
  if (!level) {
    removeEffort(body);
    return {};
  }
  const r = body.reasoning;
  if (typeof r === 'object' && r !== null && !Array.isArray(r)) (r as Record<string, unknown>).effort = level;
  else body.reasoning = { effort: level };
  return { effortSent: level };
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
  accepts: { inputAudio: false, hostedTools: true, transcriptions: false },
  normaliseBaseUrl: trimBase,
  url,
  headers: (credential) => bearerHeaders(credential),
  encodeOptions() {
    return { replayReasoning: ['openai'] };
  },
  finalizeBody: finalize,
  normaliseModelId: (id) => id,
};
