/**
 * Google Gemini through its OpenAI-compatible Chat endpoint. Effort goes to `reasoning_effort`
 * (at most `high`; `none` turns thinking off, except on Pro models that cannot, which get `low`;
 * none at all to a model the native list states does not think).
 * Tool and response schemas are cut down to what Gemini accepts; tool results carry their call's
 * name (gemini-tool-names.ts). Model ids are listed with a
 * `models/` prefix; it is removed for display and accepted either way.
 */
import { trimBase, joinUrl } from './base-url.js';
import { developerToSystem, dropOpenAiOnlyParams } from './chat-body.js';
import { chatUrl } from './chat-url.js';
import { mayContain, mayContainTwice } from '../protocols/lazy-json.js';
import { isSystemMessage, joinSystemMessages } from './chat-system-join.js';
import { lowerEffort } from './effort.js';
import { sanitizeGeminiSchema } from './gemini-schema.js';
import { signCurrentTurn } from './gemini-signatures.js';
import { nameToolResults } from './gemini-tool-names.js';
import { bearerHeaders } from './headers.js';
import type { FinalizeContext, ProviderAdapter, UpstreamOperation } from './types.js';
import { isObject } from '../util/is-object.js';
import type { DecodeOptions } from '../protocols/codec.js';

const GEMINI_REFUSED = ['reasoning', 'thinking', 'output_config', 'cache_control', 'top_k'];

export function stripModelsPrefix(id: string): string {
  return id.startsWith('models/') ? id.slice('models/'.length) : id;
}

/** Pro models cannot turn thinking off (2.5 Pro, 3.x Pro): `low` is the closest they take. */
function cannotDisableThinking(model: string): boolean {
  return /(^|[-/])pro($|[-.])/.test(model);
}

function sanitizeTools(body: Record<string, unknown>): void {
  if (!Array.isArray(body.tools)) return;
  for (const tool of body.tools) {
    if (!isObject(tool) || !isObject(tool.function)) continue;
    const fn = tool.function;
    if (fn.parameters === undefined) continue;
    const params = sanitizeGeminiSchema(fn.parameters);
    // An object without properties is rejected ("should be non-empty for OBJECT type"): no parameters.
    if (params.type === 'object' && !isObject(params.properties)) delete fn.parameters;
    else fn.parameters = params;
  }
}

function sanitizeResponseFormat(body: Record<string, unknown>): void {
  const rf = body.response_format;
  if (!isObject(rf) || rf.type !== 'json_schema' || !isObject(rf.json_schema)) return;
  const js = rf.json_schema;
  if (js.schema !== undefined) js.schema = sanitizeGeminiSchema(js.schema);
}

/**
 * OpenAI's SDKs put `refusal: null` on every assistant message they return, and clients send it
 * back as history; Gemini's compat layer answers 400 "Value is not a string: null". A null
 * refusal says nothing, so it goes.
 */
function dropNullRefusals(body: Record<string, unknown>): void {
  if (!mayContain(body, 'messages', 'refusal') || !Array.isArray(body.messages)) return;
  for (const m of body.messages) {
    if (isObject(m) && m.role === 'assistant' && m.refusal === null) delete m.refusal;
  }
}

/**
 * The compat layer keeps only the last system message (system-in-place.ts), so a Chat client's
 * several (opencode sends two, agents add reminders) are joined into the leading one, as a
 * converted request is. Two user messages a moved system message stood between become one again,
 * as a Messages client's turn reaches Gemini: Gemini's own API has refused consecutive user
 * contents ("Please ensure that multiturn requests alternate between user and model",
 * hermes-agent#55125), and one message loses nothing. Only a body whose bytes hold "system"
 * twice is read for it.
 */
function joinSystemTexts(body: Record<string, unknown>): void {
  if (!mayContainTwice(body, 'messages', 'system') || !Array.isArray(body.messages)) return;
  if (body.messages.filter(isSystemMessage).length > 1) joinSystemMessages(body, true);
}

/** `reasoning_effort` and thinking_config are mutually exclusive: the level the client chose wins. */
function dropThinkingConfig(body: Record<string, unknown>): void {
  const extra = body.extra_body;
  if (!isObject(extra) || !isObject(extra.google)) return;
  delete extra.google.thinking_config;
  if (Object.keys(extra.google).length === 0) delete extra.google;
  if (Object.keys(extra).length === 0) delete body.extra_body;
}

/**
 * A model the native list states does not think (gemini-native-list.ts: gemini-2.0-flash, Gemma)
 * refuses any effort, `none` too, since the compat layer makes it a thinkingConfig: 400 "Thinking
 * is not enabled for models/…" (lobehub/lobehub#7686). It cannot think anyway, so nothing is lost.
 */
function dropThinking(body: Record<string, unknown>): Record<string, never> {
  delete body.reasoning_effort;
  dropThinkingConfig(body);
  return {};
}

function finalize(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string } {
  if (typeof body.model === 'string') body.model = stripModelsPrefix(body.model);
  developerToSystem(body);
  joinSystemTexts(body);
  dropOpenAiOnlyParams(body);
  // Fields other gateways accept on Chat bodies but Gemini's compat layer refuses.
  for (const key of GEMINI_REFUSED) delete body[key];
  dropNullRefusals(body);
  nameToolResults(body);
  signCurrentTurn(body, stripModelsPrefix(ctx.model));
  sanitizeTools(body);
  sanitizeResponseFormat(body);
  if (ctx.stated?.efforts?.length === 0) return dropThinking(body);
  if (ctx.effort === undefined) return {};
  let effort: string = lowerEffort(ctx.effort, 'high');
  if (effort === 'none' && cannotDisableThinking(stripModelsPrefix(ctx.model))) effort = 'low';
  body.reasoning_effort = effort;
  dropThinkingConfig(body);
  return { effortSent: effort };
}

/** Native API root (`…/v1beta`) from the compat base (`…/v1beta/openai`). */
export function geminiNativeRoot(baseUrl: string): string {
  const base = trimBase(baseUrl);
  const q = base.indexOf('?');
  const path = q === -1 ? base : base.slice(0, q);
  return path.replace(/\/openai$/, '') + (q === -1 ? '' : base.slice(q));
}

function url(baseUrl: string, op: UpstreamOperation, model?: string): string {
  if (op === 'count_tokens') {
    const id = stripModelsPrefix(model ?? '');
    return joinUrl(geminiNativeRoot(baseUrl), `/models/${encodeURIComponent(id)}:countTokens`);
  }
  return chatUrl(baseUrl, op);
}

/** Gemini's per-day quota waits for midnight Pacific: its decoder counts the wait from the clock (one object for every request). */
const DECODE_OPTIONS: DecodeOptions = { now: () => Date.now() };

export const geminiAdapter: ProviderAdapter = {
  kind: 'gemini',
  dialect: 'chat',
  highestEffort: 'high',
  accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: false },
  normaliseBaseUrl: trimBase,
  url,
  headers: (credential) => bearerHeaders(credential),
  encodeOptions() {
    // no systemInPlace: the compat layer keeps only the last system message (system-in-place.ts)
    // Gemini takes up to 5 stop sequences (GenerationConfig.stopSequences), one more than OpenAI
    return { replayReasoning: [], systemRole: 'system', maxTokensField: 'max_tokens', thoughtSignatures: true, maxStops: 5 };
  },
  decodeOptions: () => DECODE_OPTIONS,
  finalizeBody: finalize,
  normaliseModelId: stripModelsPrefix,
};
