/**
 * A Messages upstream's non-streamed answer → hub response. Upstream bodies are read leniently
 * (unknown blocks such as other server tools' results are skipped; a web search becomes the hub's,
 * web-search.ts), but a body that is not a message at all is a 502, and an error body keeps the
 * upstream's status.
 */
import type { HubResponse, OutputItem, MessageItem } from '../hub.js';
import { ProtocolError } from '../errors.js';
import { isObject, stringOr } from './json.js';
import { hubStopReason, statusForErrorType } from './stop-reason.js';
import { reasoningOfThinkingBlock } from '../reasoning-envelope.js';
import { hubUsage, readCounts } from './usage.js';
import { queryOf, searchFromResult, urlCitationsOf } from './web-search.js';

export function decodeResponse(raw: unknown): HubResponse {
  if (isObject(raw) && raw.type === 'error') {
    const err = isObject(raw.error) ? raw.error : {};
    throw new ProtocolError(statusForErrorType(err.type), 'upstream_error', stringOr(err.message) ?? 'The upstream reported an error.');
  }
  if (!isObject(raw) || !Array.isArray(raw.content)) {
    throw new ProtocolError(502, 'upstream_invalid_response', 'The upstream answer is not a Messages response (no content array).');
  }

  const output: OutputItem[] = [];
  let queries: Map<string, string | undefined> | undefined; // web search server_tool_use id → its query
  let message: MessageItem | undefined; // adjacent text blocks form one assistant message
  for (const block of raw.content) {
    if (!isObject(block)) continue;
    switch (block.type) {
      case 'text': {
        const text = stringOr(block.text) ?? '';
        if (text === '') break;
        if (!message) {
          message = { type: 'message', role: 'assistant', content: [] };
          output.push(message);
        }
        const citations = urlCitationsOf(block.citations);
        message.content.push(citations.length > 0 ? { type: 'text', text, citations } : { type: 'text', text });
        break;
      }
      case 'thinking': {
        const signature = stringOr(block.signature) ?? '';
        output.push(reasoningOfThinkingBlock(stringOr(block.thinking) ?? '', signature));
        message = undefined;
        break;
      }
      case 'redacted_thinking':
        output.push({ type: 'reasoning', text: '', origin: { kind: 'anthropic_redacted', data: stringOr(block.data) ?? '' } });
        message = undefined;
        break;
      case 'tool_use':
        output.push({
          type: 'function_call',
          callId: stringOr(block.id) ?? '',
          name: stringOr(block.name) ?? '',
          arguments: JSON.stringify(block.input ?? {}),
        });
        message = undefined;
        break;
      case 'server_tool_use':
        if (block.name === 'web_search' && typeof block.id === 'string') (queries ??= new Map()).set(block.id, queryOf(block.input));
        break;
      case 'web_search_tool_result':
        output.push(searchFromResult(block, typeof block.tool_use_id === 'string' ? queries?.get(block.tool_use_id) : undefined));
        message = undefined;
        break;
      default:
        break;
    }
  }

  const res: HubResponse = {
    id: stringOr(raw.id) ?? '',
    model: stringOr(raw.model) ?? '',
    output,
    stopReason: hubStopReason(raw.stop_reason),
  };
  const stopSequence = stringOr(raw.stop_sequence);
  if (stopSequence !== undefined) res.stopSequence = stopSequence;
  if (isObject(raw.usage)) {
    const u = hubUsage(readCounts(raw.usage));
    res.usage = { inputTokens: u.inputTokens ?? 0, outputTokens: u.outputTokens ?? 0, ...u };
  }
  return res;
}
