/**
 * Hub response → the Messages answer a protocol B client receives: content blocks in order
 * (thinking first as produced, text, tool_use with a parsed `input`), Anthropic usage semantics,
 * and the Anthropic stop reason.
 */
import type { ContentBlock, Message, Usage as MessagesUsage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ResponseContext } from '../codec.js';
import type { HubResponse, Usage } from '../hub.js';
import { contextManagementOf } from './context-edits.js';
import { clientMessageId, toolUseId } from './ids.js';
import { answerCallIds } from '../call-id-reuse.js';
import { stopDetails } from './stop-details.js';
import { messagesStopReason } from './stop-reason.js';
import { clientThinkingBlock } from './thinking.js';
import { parseToolInput } from './tool-input.js';
import { anthropicUsage } from './usage.js';
import { serverToolUsage, serverToolUseBlock, webSearchResultBlock } from './web-search.js';

export function encodeResponse(res: HubResponse, ctx: ResponseContext): Record<string, unknown> {
  const content: ContentBlock[] = [];
  let searches = 0;
  let refusal: string | undefined;
  const callId = answerCallIds(ctx.callIdTaken);
  for (const item of res.output) {
    switch (item.type) {
      case 'reasoning': {
        if (ctx.hideThinking) break;
        const block = clientThinkingBlock(item, ctx.omitThinking);
        if (block) content.push(block);
        break;
      }
      case 'message':
        for (const part of item.content) {
          // Refusal text is still the answer the client must see; media in output has no Messages form.
          // No `citations` key when there are none, as Anthropic answers: `citations: null` breaks
          // clients that validate strictly (the Vercel AI SDK accepts only an array or no key).
          if ((part.type === 'text' || part.type === 'refusal') && part.text !== '') content.push({ type: 'text', text: part.text } as ContentBlock);
          if (part.type === 'refusal') refusal = refusal === undefined ? part.text : refusal + part.text;
        }
        break;
      case 'function_call':
        content.push({ type: 'tool_use', id: toolUseId(callId(item.callId)), name: item.name, input: parseToolInput(item.arguments), caller: { type: 'direct' } });
        break;
      case 'web_search':
        content.push(serverToolUseBlock(item), webSearchResultBlock(item));
        searches++;
        break;
    }
  }
  const message: Message = {
    id: clientMessageId(res.id, ctx),
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: messagesStopReason(res.stopReason),
    stop_sequence: res.stopSequence ?? null,
    stop_details: stopDetails(res.stopReason, refusal),
    container: null,
    diagnostics: null,
    usage: messagesUsage(res.usage, searches),
  };
  // (a beta field the GA Message type does not declare)
  if (ctx.contextEdits) return { ...message, context_management: contextManagementOf(ctx.contextEdits) } as unknown as Record<string, unknown>;
  return message as unknown as Record<string, unknown>;
}

/**
 * One literal, not `{ ...anthropicUsage(u), cache_creation: null, … }`: on Node 20's V8 a spread
 * copy that then gains keys gets a hidden class of its own on every call (2–10 µs here, and a map
 * left for the full collector per answer).
 */
export function messagesUsage(u: Partial<Usage> | undefined, searches = 0): MessagesUsage {
  const counts = anthropicUsage(u ?? {});
  return {
    input_tokens: counts.input_tokens,
    cache_creation_input_tokens: counts.cache_creation_input_tokens,
    cache_read_input_tokens: counts.cache_read_input_tokens,
    output_tokens: counts.output_tokens,
    output_tokens_details: counts.output_tokens_details,
    cache_creation: null,
    inference_geo: null,
    server_tool_use: serverToolUsage(searches),
    service_tier: null,
    speed: null,
  };
}
