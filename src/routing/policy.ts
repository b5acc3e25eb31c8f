/**
 * Which targets can take a request. The features are read once from the raw body; each target
 * is then checked against its adapter's `accepts` before anything is sent. A failed check is a
 * skipped attempt with its reason (the first one becomes the client's 400 if no target fits).
 */
import { ProtocolError, badRequest } from '../protocols/errors.js';
import type { Dialect } from '../protocols/hub.js';
import { mayContain } from '../protocols/lazy-json.js';
import { isAdvisorTool } from '../protocols/messages/advisor.js';
import { isWebSearchType } from '../protocols/messages/web-search.js';
import { isWebSearchToolType } from '../protocols/responses/web-search.js';
import type { ProviderAdapter } from '../providers/types.js';
import { threadRefusal } from './message-threads.js';

const AUDIO_PART = 'input_audio';

export interface RequestFeatures {
  /** Chat `input_audio` content parts. */
  inputAudio: boolean;
  /** Responses hosted tool types (web_search, file_search, mcp, …) in `tools` (not function/namespace/custom). */
  hostedTools: string[];
  /** Anthropic server tool types (web_search_20250305, bash_…, …) in a Messages request. */
  serverTools: string[];
  /**
   * A Responses request that names a previous_response_id svc-proxy did not keep (one it kept was
   * resolved before this is read: response-store.ts).
   */
  previousResponse: boolean;
  /** A Responses request that goes on with an OpenAI conversation (`conversation`). */
  conversation: boolean;
  /** A Chat request asking for web search (`web_search_options`). */
  webSearchOptions: boolean;
  /** A Messages request in a message thread the server holds (`thread`, beta message-threads-2026-08-12). */
  thread: boolean;
}

export function readFeatures(body: Record<string, unknown>, dialect: Dialect): RequestFeatures {
  return {
    // a conversation still unparsed is read only when its bytes could hold an audio part
    inputAudio:
      dialect === 'chat'
        ? mayContain(body, 'messages', AUDIO_PART) && hasChatAudio(body.messages)
        : dialect === 'responses'
          ? mayContain(body, 'input', AUDIO_PART) && hasResponsesAudio(body.input)
          : false,
    hostedTools: dialect === 'responses' ? nonFunctionToolTypes(body.tools) : [],
    serverTools: dialect === 'messages' ? serverToolTypes(body.tools) : [],
    previousResponse: dialect === 'responses' && typeof body.previous_response_id === 'string' && body.previous_response_id !== '',
    conversation: dialect === 'responses' && body.conversation !== undefined && body.conversation !== null,
    webSearchOptions: dialect === 'chat' && body.web_search_options !== undefined && body.web_search_options !== null,
    thread: dialect === 'messages' && body.thread !== undefined && body.thread !== null,
  };
}

/**
 * Stateful Responses features no target can serve through svc-proxy: a background response lives
 * behind endpoints it does not proxy. (A previous_response_id is resolved from the answers it
 * keeps, or left to OpenAI; a conversation is OpenAI's: policyRefusal.)
 */
export function checkStatefulResponses(body: Record<string, unknown>): void {
  // anything but a string would be passed over, and the model would answer without the
  // conversation the client meant to go on from ('' stays "none", as clients send it)
  const previous = body.previous_response_id;
  if (previous !== undefined && previous !== null && typeof previous !== 'string') {
    throw badRequest('invalid_request', `previous_response_id must be a response id (a string), got ${JSON.stringify(previous).slice(0, 80)}.`, 'previous_response_id');
  }
  const conversation = body.conversation !== undefined && body.conversation !== null;
  if (conversation && body.previous_response_id !== undefined && body.previous_response_id !== null) {
    throw badRequest('mutually_exclusive_parameters', 'conversation and previous_response_id cannot both be given: a request goes on from one or the other (as OpenAI says).', 'conversation');
  }
  if (body.background === true) {
    throw badRequest('unsupported_feature', 'background responses are not supported by svc-proxy (nothing is stored to poll). Use stream: true instead.', 'background');
  }
}

/** Why this adapter cannot take the request, or undefined when it can. */
export function policyRefusal(
  features: RequestFeatures,
  adapter: ProviderAdapter,
  slug: string,
  dialect: Dialect,
): ProtocolError | undefined {
  if (features.inputAudio && !adapter.accepts.inputAudio) {
    return badRequest(
      'unsupported_modality',
      `${slug} does not accept audio input (input_audio). Use an openrouter, gemini, custom (format a) or local model for audio.`,
    );
  }
  // web search alone is taken by a target that searches on its own (the other provider's tool)
  if (features.hostedTools.length > 0 && !adapter.accepts.hostedTools) {
    if (!features.hostedTools.every(isWebSearchToolType)) {
      return badRequest(
        'unsupported_feature',
        `Hosted tools (${features.hostedTools.join(', ')}) work only with openai models; ${slug} cannot run them. Remove them or define them as function tools.`,
        'tools',
      );
    }
    if (!adapter.accepts.webSearch) return cannotSearch(features.hostedTools, slug);
  }
  // OpenAI keeps the responses it answered (unless told not to) and resolves its own ids; an id
  // svc-proxy did not keep can only be OpenAI's (or gone)
  if (features.previousResponse && (adapter.dialect !== 'responses' || dialect !== 'responses')) {
    return badRequest(
      'previous_response_not_found',
      `previous_response_id names a response svc-proxy does not keep (it keeps its own answers to Responses clients for an hour, unless store is false; none survive a restart), and ${slug} keeps none; OpenAI's own ids are resolved by openai/… models, and read from OpenAI for other models when openai is connected. Send the whole conversation in \`input\`.`,
      'previous_response_id',
    );
  }
  // OpenAI keeps conversations and appends to them itself; no other provider knows its ids
  if (features.conversation && adapter.kind !== 'openai') {
    return badRequest(
      'unsupported_feature',
      `conversation names one of OpenAI's conversations, which only openai/… models go on with; ${slug} cannot. Send the history in \`input\` (GET /conversations/{id}/items reads it), or use previous_response_id, which works on every model.`,
      'conversation',
    );
  }
  // a Chat target gets web_search_options as sent (OpenRouter, OpenAI-compatible endpoints take it);
  // a converted one searches with its own tool, where it has one
  if (features.webSearchOptions && adapter.dialect !== 'chat' && !adapter.accepts.webSearch) {
    return cannotSearch(['web_search_options'], slug, 'web_search_options');
  }
  if (features.thread && adapter.kind !== 'anthropic') return threadRefusal(slug);
  if (features.serverTools.length > 0 && adapter.dialect !== 'messages' && dialect === 'messages') {
    if (!features.serverTools.every(isWebSearchType)) {
      return badRequest(
        'unsupported_feature',
        `Anthropic server tools (${features.serverTools.join(', ')}) work only with Messages-speaking targets; ${slug} cannot run them.`,
        'tools',
      );
    }
    if (!adapter.accepts.webSearch) return cannotSearch(features.serverTools, slug);
  }
  return undefined;
}

function cannotSearch(types: string[], slug: string, param = 'tools'): ProtocolError {
  return badRequest(
    'unsupported_feature',
    `Web search (${types.join(', ')}) runs only on anthropic/… and openai/… models; ${slug} cannot search. Remove the tool or pick one of those models.`,
    param,
  );
}

function hasChatAudio(messages: unknown): boolean {
  if (!Array.isArray(messages)) return false;
  for (const m of messages) {
    const content = (m as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if ((part as { type?: unknown } | null)?.type === AUDIO_PART) return true;
    }
  }
  return false;
}

function hasResponsesAudio(input: unknown): boolean {
  if (!Array.isArray(input)) return false;
  for (const item of input) {
    const content = (item as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      if ((part as { type?: unknown } | null)?.type === AUDIO_PART) return true;
    }
  }
  return false;
}

const CONVERTIBLE_TOOL_TYPES: ReadonlySet<string> = new Set(['function', 'namespace', 'custom']);

function nonFunctionToolTypes(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const types: string[] = [];
  for (const t of tools) {
    const type = (t as { type?: unknown } | null)?.type;
    // Any target can take these: a namespace groups function (and custom) tools, whose names
    // routing flattens, and a custom tool becomes a function taking its text (freeform-tools.ts).
    if (typeof type === 'string' && !CONVERTIBLE_TOOL_TYPES.has(type) && !types.includes(type)) types.push(type);
  }
  return types;
}

function serverToolTypes(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  const types: string[] = [];
  for (const t of tools) {
    const type = (t as { type?: unknown } | null)?.type;
    // the advisor is left out for other models, not refused (advisor.ts)
    if (typeof type === 'string' && type !== 'custom' && !isAdvisorTool(t as Record<string, unknown>) && !types.includes(type)) types.push(type);
  }
  return types;
}
