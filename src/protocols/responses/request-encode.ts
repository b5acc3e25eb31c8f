/**
 * Hub request → a Responses request for an OpenAI upstream (used when a Chat or Messages client
 * targets an openai model). Stateless: `store:false` and the encrypted reasoning included, so the
 * next turn can replay it. Effort is written as the hub says; the provider adapter applies its
 * policy (e.g. leaving `none` out) afterwards.
 *
 * Not expressible in Responses: `stop` (left out — routing holds it: stops-left-out.ts), `top_k`
 * (dropped), `n > 1` (400 unsupported_feature), audio input (400 unsupported_modality).
 * Logprobs are asked for as Responses does: `top_logprobs` and the `include` that returns them.
 */
import { createHash } from 'node:crypto';
import type {
  FunctionTool as WireFunctionTool,
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  Tool as WireTool,
  WebSearchTool as WireWebSearchTool,
} from 'openai/resources/responses/responses';
import type { EncodeRequestOptions } from '../codec.js';
import type { ContentPart, FunctionCallOutputItem, HubRequest, Item, ResponseFormat, SystemPart, Tool, ToolChoice, WebSearchTool } from '../hub.js';
import { badRequest } from '../errors.js';
import { cutContent, standsBefore } from '../inline-system.js';
import { toolErrorPrefix } from '../tool-error.js';
import { joinedResultTexts } from '../tool-result-text.js';
import { wireCallId } from './call-id-limit.js';
import { assistantPart, userPart } from './content-encode.js';
import { wireReasoningItem } from './reasoning.js';

/** The `include` entry that makes OpenAI return the answer's logprobs (on its output_text parts). */
export const LOGPROBS_INCLUDE = 'message.output_text.logprobs';

export function encodeRequest(req: HubRequest, opts: EncodeRequestOptions): Record<string, unknown> {
  if (req.n !== undefined && req.n > 1) {
    throw badRequest('unsupported_feature', 'n > 1 (several choices) is not supported for this model; send one request per choice.', 'n');
  }
  const body: Record<string, unknown> = { model: req.model, store: false, include: ['reasoning.encrypted_content'] };
  // leading system texts are the instructions; one from the conversation's middle stays there
  const instructions = req.system
    .filter((s) => s.inline === undefined)
    .map((s) => s.text)
    .filter((t) => t.length > 0)
    .join('\n\n');
  if (instructions) body.instructions = instructions;
  body.input = encodeItems(req.items, opts, req.system.filter((s) => s.inline !== undefined && s.text.length > 0));

  const tools = req.tools.map(encodeTool);
  if (tools.length > 0) {
    body.tools = tools;
    // the pages a search found are listed only when asked for
    if (req.tools.some((t) => t.type === 'web_search')) (body.include as string[]).push('web_search_call.action.sources');
    // tool_choice and parallel_tool_calls only mean something next to tools.
    if (req.toolChoice) body.tool_choice = encodeToolChoice(req.toolChoice, req.tools);
    if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  }

  const text: Record<string, unknown> = {};
  if (req.responseFormat) text.format = encodeFormat(req.responseFormat);
  if (req.verbosity) text.verbosity = req.verbosity;
  if (Object.keys(text).length > 0) body.text = text;

  if (req.maxOutputTokens !== undefined) body.max_output_tokens = req.maxOutputTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.logprobs !== undefined) {
    (body.include as string[]).push(LOGPROBS_INCLUDE);
    body.top_logprobs = req.logprobs;
  }

  const reasoning = encodeReasoning(req.reasoning);
  if (reasoning) body.reasoning = reasoning;

  if (req.metadata && Object.keys(req.metadata).length > 0) body.metadata = req.metadata;
  if (req.user) body.safety_identifier = safetyIdentifier(req.user);
  if (req.promptCacheKey) body.prompt_cache_key = req.promptCacheKey;
  if (req.serviceTier) body.service_tier = req.serviceTier;
  body.stream = req.stream;
  return body;
}

/**
 * `reasoning` for OpenAI: the effort, and a summary wherever the client is to see reasoning text.
 * Reasoning turned off asks for none (a summary would show the client reasoning it turned off,
 * should the model reason after all); a Messages client's `display: "omitted"` asks for none; a
 * Messages client that turned thinking on without a level (adaptive) asks for one at the model's
 * default effort, as its `summarized` or `updates` display means.
 */
function encodeReasoning(r: HubRequest['reasoning']): Record<string, unknown> | undefined {
  if (!r) return undefined;
  const { effort, summary } = r;
  const thinkingOn = r.thinkingType === 'adaptive' || r.thinkingType === 'enabled';
  const wantsText = summary !== undefined || (r.display !== 'omitted' && effort !== 'none' && (effort !== undefined || thinkingOn));
  const out: Record<string, unknown> = {};
  if (effort !== undefined) out.effort = effort;
  if (wantsText) out.summary = summary ?? 'auto';
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * OpenAI caps safety_identifier at 64 characters; longer ids (Claude Code's metadata.user_id is
 * ~150) become their SHA-256, which stays stable per user and opaque.
 */
function safetyIdentifier(user: string): string {
  return user.length <= 64 ? user : createHash('sha256').update(user).digest('hex');
}

function encodeItems(items: readonly Item[], opts: EncodeRequestOptions, inline: readonly SystemPart[]): ResponseInputItem[] {
  const replayOpenai = opts.replayReasoning.includes('openai');
  const out: ResponseInputItem[] = [];
  let next = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    // never between a call and its output: one written there goes after the turn's results
    if (next < inline.length && item.type !== 'function_call_output') next = pushInline(out, inline, next, i);
    switch (item.type) {
      case 'reasoning':
        // Only OpenAI's own encrypted reasoning can go back to OpenAI; anything else is dropped,
        // never turned into text.
        if (replayOpenai && item.origin.kind === 'openai') out.push(wireReasoningItem(item.origin, item.text, item.origin.id));
        break;
      case 'message': {
        if (item.role === 'user') {
          if (next < inline.length) next = pushUserAround(out, item.content, inline, next, i);
          else if (item.content.length > 0) out.push({ type: 'message', role: 'user', content: item.content.map(userPart) });
          break;
        }
        const content = item.content.filter((p) => !(p.type === 'text' && p.text.length === 0)).map(assistantPart);
        if (content.length === 0) break;
        // An output message without id/status is accepted as history; the SDK type insists on both.
        const message = { type: 'message', role: 'assistant', content, ...(item.phase ? { phase: item.phase } : {}) };
        out.push(message as ResponseInputItem);
        break;
      }
      case 'function_call':
        // No `id`: OpenAI demands ids starting with "fc" and call_id alone correlates.
        out.push({ type: 'function_call', call_id: wireCallId(item.callId), name: item.name, arguments: item.arguments });
        break;
      case 'function_call_output':
        out.push({ type: 'function_call_output', call_id: wireCallId(item.callId), output: encodeToolOutput(item) });
        break;
    }
  }
  pushInline(out, inline, next, items.length);
  return keepAnchoredReasoning(out);
}

/**
 * The inline system parts from `from` that stood before items[index] (or earlier), as input
 * messages of their role. The next part's index.
 */
function pushInline(out: ResponseInputItem[], inline: readonly SystemPart[], from: number, index: number): number {
  let to = from;
  while (to < inline.length && standsBefore(inline[to]!, index)) to++;
  pushSystemMessages(out, inline.slice(from, to));
  return to;
}

/** A user message with the inline parts that stood inside it between its pieces; the next part's index. */
function pushUserAround(out: ResponseInputItem[], content: ContentPart[], inline: readonly SystemPart[], from: number, index: number): number {
  const { pieces, between, next } = cutContent(content, inline, from, index);
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) pushSystemMessages(out, between[i - 1]!);
    if (piece.length > 0) out.push({ type: 'message', role: 'user', content: piece.map(userPart) });
  }
  return next;
}

/** Inline parts as input messages: the parts of one role at one place in one message. */
function pushSystemMessages(out: ResponseInputItem[], parts: readonly SystemPart[]): void {
  for (let i = 0; i < parts.length; ) {
    const { beforeItem, beforePart, role } = parts[i]!.inline!;
    const content: { type: 'input_text'; text: string }[] = [];
    for (; i < parts.length; i++) {
      const at = parts[i]!.inline!;
      if (at.beforeItem !== beforeItem || at.beforePart !== beforePart || at.role !== role) break;
      content.push({ type: 'input_text', text: parts[i]!.text });
    }
    out.push({ type: 'message', role, content });
  }
}

/**
 * OpenAI rejects a reasoning item that is not followed by the output item it led to ("provided
 * without its required following item"). After dropping foreign items, keep only reasoning
 * directly followed by an assistant message or a function call.
 */
function keepAnchoredReasoning(items: ResponseInputItem[]): ResponseInputItem[] {
  return items.filter((item, i) => {
    if (item.type !== 'reasoning') return true;
    const next = items[i + 1];
    return next !== undefined && (next.type === 'function_call' || ('role' in next && next.role === 'assistant'));
  });
}

function encodeToolOutput(item: FunctionCallOutputItem): string | ResponseFunctionCallOutputItemList {
  // No error flag in Responses: a failed result says so in its text.
  if (typeof item.output === 'string') return toolErrorPrefix(item.isError, item.output) + item.output;
  if (item.output.every((p) => p.type === 'text')) {
    const text = joinedResultTexts(item.output.map((p) => (p.type === 'text' ? p.text : '')));
    return toolErrorPrefix(item.isError, text) + text;
  }
  const first = item.output[0];
  const prefix = toolErrorPrefix(item.isError, first?.type === 'text' ? first.text : '');
  const parts = item.output.map(userPart) as ResponseFunctionCallOutputItemList;
  return prefix ? [{ type: 'input_text', text: prefix.trimEnd() }, ...parts] : parts;
}

function encodeTool(tool: Tool): WireTool {
  if (tool.type === 'hosted') return tool.raw as unknown as WireTool;
  if (tool.type === 'web_search') return webSearchTool(tool);
  const fn: WireFunctionTool = {
    type: 'function',
    name: tool.name,
    // Responses treats function tools as strict unless told otherwise: say it explicitly.
    strict: tool.strict === true,
    parameters: tool.parameters ?? { type: 'object', properties: {} },
  };
  if (tool.description !== undefined) fn.description = tool.description;
  return fn;
}

/**
 * Anthropic's web search → OpenAI's. OpenAI has no blocked domains nor a cap on searches per
 * turn: `blocked_domains` and `max_uses` are left out (the README says so).
 */
function webSearchTool(tool: WebSearchTool): WireWebSearchTool {
  const wire: WireWebSearchTool = { type: 'web_search' };
  if (tool.allowedDomains && tool.allowedDomains.length > 0) wire.filters = { allowed_domains: tool.allowedDomains };
  if (tool.userLocation) wire.user_location = { type: 'approximate', ...tool.userLocation };
  if (tool.contextSize) wire.search_context_size = tool.contextSize;
  return wire;
}

function encodeToolChoice(choice: ToolChoice, tools: readonly Tool[]): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'function': {
      // A client that forces its web search (Claude Code's WebSearch does): OpenAI's tool_choice
      // cannot name web_search, so "a tool, and only that one".
      const search = tools.find((t) => t.type === 'web_search' && t.name === choice.name);
      if (search) return tools.length === 1 ? 'required' : { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] };
      return { type: 'function', name: choice.name };
    }
    case 'allowed_tools':
      return { type: 'allowed_tools', mode: choice.mode, tools: choice.names.map((name) => ({ type: 'function', name })) };
  }
}

function encodeFormat(format: ResponseFormat): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  const out: Record<string, unknown> = { type: 'json_schema', name: format.name, schema: format.schema };
  if (format.strict !== undefined) out.strict = format.strict;
  if (format.description !== undefined) out.description = format.description;
  return out;
}
