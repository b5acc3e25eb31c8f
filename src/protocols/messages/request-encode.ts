/**
 * Hub request → Messages request for a Messages upstream (a Chat or Responses client talking to
 * an Anthropic-speaking provider).
 *
 * Shape rules Anthropic enforces: system prompts live in `system`; turns alternate, so
 * consecutive same-role items merge into one turn; a user turn answering tool calls starts with
 * its tool_result blocks; an assistant turn starts with its thinking blocks, then text, then
 * tool_use; the conversation starts with a user turn; `max_tokens` is required.
 */
import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
  ToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { EncodeRequestOptions } from '../codec.js';
import type { FunctionCallItem, FunctionCallOutputItem, HubRequest } from '../hub.js';
import { toolUseId } from './ids.js';
import { badRequest } from '../errors.js';
import { limitCacheBreakpoints, withCacheControl } from './cache-control.js';
import { encodePart, isBlankText } from './content-encode.js';
import { encodeJsonOutput } from './json-output.js';
import { parseToolInput } from './tool-input.js';
import { encodeReasoning, upstreamThinkingBlock } from './thinking.js';
import { encodeTools } from './tools-encode.js';
import { stopsSent } from '../stops-left-out.js';

/** Used only when neither the client nor the provider adapter gave a cap (Anthropic requires one). */
export const FALLBACK_MAX_TOKENS = 8192;

/**
 * Text of a user turn the proxy has to supply: first when a conversation would otherwise start
 * with the assistant, and last in place of a blank latest user message.
 */
export const PLACEHOLDER_USER_TEXT = '(continue)';

/**
 * "local@domain.tld": one `@`, no whitespace, a dot inside the domain. Scanned by hand: the regex
 * form (`^[^\s@]+@[^\s@]+\.[^\s@]+$`) backtracks quadratically on a long crafted `user`.
 */
function isEmail(s: string): boolean {
  const at = s.indexOf('@');
  if (at < 1 || s.indexOf('@', at + 1) !== -1 || /\s/.test(s)) return false;
  const dot = s.indexOf('.', at + 2);
  return dot !== -1 && dot < s.length - 1;
}

/** Temperature, top_p and top_k exist on the API but not in SDK 1.x types. */
type MessagesRequest = MessageCreateParamsBase & { temperature?: number; top_p?: number; top_k?: number };

interface Turn {
  role: 'user' | 'assistant';
  /** Assistant: thinking blocks. User: tool_result blocks. Both come first in their turn. */
  lead: ContentBlockParam[];
  body: ContentBlockParam[];
  /** Assistant only: tool_use blocks, last. */
  tail: ContentBlockParam[];
}

export function encodeRequest(req: HubRequest, opts: EncodeRequestOptions): Record<string, unknown> {
  const keepCache = opts.keepCacheControl === true;
  if (req.n !== undefined && req.n > 1) {
    throw badRequest('unsupported_feature', 'n > 1 (several choices) is not supported by this model.', 'n');
  }

  const turns: Turn[] = [];
  let historyHasTools = false;
  const turn = (role: Turn['role']): Turn => {
    const last = turns[turns.length - 1];
    if (last && last.role === role) return last;
    const t: Turn = { role, lead: [], body: [], tail: [] };
    turns.push(t);
    return t;
  };
  req.items.forEach((item) => {
    // Hub positions mean nothing to the client: errors name the kind of turn instead.
    const where = item.type === 'function_call_output' ? 'a tool result' : item.type === 'message' && item.role === 'user' ? 'a user message' : 'an assistant message';
    switch (item.type) {
      case 'message': {
        const t = turn(item.role);
        for (const part of item.content) {
          const block = encodePart(part, keepCache, where);
          if (block) t.body.push(block);
        }
        break;
      }
      case 'reasoning': {
        const block = upstreamThinkingBlock(item, opts.replayReasoning);
        if (block) turn('assistant').lead.push(block);
        break;
      }
      case 'function_call':
        historyHasTools = true;
        turn('assistant').tail.push(toolUse(item, keepCache));
        break;
      case 'function_call_output':
        historyHasTools = true;
        turn('user').lead.push(toolResult(item, keepCache, where));
        break;
    }
  });

  // Turns left empty (blank text only) are dropped and their neighbours merge, as Anthropic does.
  const messages = mergeTurns(turns.filter((t) => t.lead.length + t.body.length + t.tail.length > 0));
  if (messages.length === 0) throw badRequest('invalid_messages', 'The conversation has no user or assistant message to send.', 'messages');
  const placeholder = (): MessageParam => ({ role: 'user', content: [{ type: 'text', text: PLACEHOLDER_USER_TEXT }] });
  if (messages[0]!.role === 'assistant') messages.unshift(placeholder());
  // A blank latest user message still asks for a reply: without it the last assistant turn would read as a prefill.
  if (turns[turns.length - 1]!.role === 'user' && messages[messages.length - 1]!.role === 'assistant') messages.push(placeholder());

  const out: MessagesRequest = {
    model: req.model,
    max_tokens: req.maxOutputTokens ?? opts.defaultMaxTokens ?? FALLBACK_MAX_TOKENS,
    messages,
  };

  const system: TextBlockParam[] = req.system
    .filter((s) => !isBlankText(s.text)) // blank system blocks are refused too (opencode#35101)
    .map((s) => withCacheControl<TextBlockParam>({ type: 'text', text: s.text }, s.cacheControl, keepCache));
  const json = encodeJsonOutput(req.responseFormat);
  if (json.instruction) system.push({ type: 'text', text: json.instruction });
  if (system.length > 0) out.system = system;

  Object.assign(out, encodeTools(req, historyHasTools, keepCache));

  if (req.temperature !== undefined) out.temperature = Math.min(Math.max(req.temperature, 0), 1);
  if (req.topP !== undefined) out.top_p = req.topP;
  if (req.topK !== undefined) out.top_k = req.topK;
  const stop = stopsSent('messages', req.stop, opts);
  if (stop) out.stop_sequences = stop;
  if (req.user && !isEmail(req.user)) out.metadata = { user_id: req.user };

  const { thinking, effort } = encodeReasoning(req.reasoning);
  if (thinking) out.thinking = thinking;
  const format = json.format;
  if (effort || format) {
    // keys set one by one: two spreads of one-key objects make a hidden class per call on Node 20
    const config: NonNullable<typeof out.output_config> = {};
    if (effort) config.effort = effort;
    if (format) config.format = format;
    out.output_config = config;
  }

  if (keepCache && req.cacheControl) out.cache_control = { ...req.cacheControl };
  if (req.stream) out.stream = true;

  const body = out as unknown as Record<string, unknown>;
  if (keepCache) {
    const marked = limitCacheBreakpoints(body);
    // A one-off prompt (one message, no tools) would pay the cache write (1.25× input) for no read.
    const repeats = messages.length > 1 || out.tools !== undefined;
    if (opts.automaticCache && repeats && marked === 0 && body.cache_control === undefined) body.cache_control = { type: 'ephemeral' };
  }
  return body;
}

function mergeTurns(turns: Turn[]): MessageParam[] {
  const merged: Turn[] = [];
  for (const t of turns) {
    const last = merged[merged.length - 1];
    if (last && last.role === t.role) {
      last.lead.push(...t.lead);
      last.body.push(...t.body);
      last.tail.push(...t.tail);
    } else merged.push({ role: t.role, lead: [...t.lead], body: [...t.body], tail: [...t.tail] });
  }
  return merged.map((t) => ({ role: t.role, content: [...t.lead, ...t.body, ...t.tail] }));
}

function toolUse(item: FunctionCallItem, keepCache: boolean): ToolUseBlockParam {
  return withCacheControl<ToolUseBlockParam>({ type: 'tool_use', id: toolUseId(item.callId), name: item.name, input: parseToolInput(item.arguments) }, item.cacheControl, keepCache);
}

function toolResult(item: FunctionCallOutputItem, keepCache: boolean, where: string): ToolResultBlockParam {
  const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: toolUseId(item.callId) };
  if (typeof item.output === 'string') {
    if (item.output !== '') block.content = item.output;
  } else {
    const content: NonNullable<ToolResultBlockParam['content']> = [];
    for (const part of item.output) {
      const encoded = encodePart(part, keepCache, where);
      if (encoded) content.push(encoded);
    }
    if (content.length > 0) block.content = content;
  }
  if (item.isError) block.is_error = true;
  return withCacheControl(block, item.cacheControl, keepCache);
}
