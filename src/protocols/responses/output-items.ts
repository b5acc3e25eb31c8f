/**
 * Output items as a Responses client receives them, shared by the non-streamed and the streamed
 * encoders so both say exactly the same thing.
 */
import type {
  ResponseCustomToolCallItem,
  ResponseFunctionToolCall,
  ResponseFunctionWebSearch,
  ResponseOutputMessage,
  ResponseOutputRefusal,
  ResponseOutputText,
} from 'openai/resources/responses/responses';
import { citedStretch } from '../citations.js';
import type { ContentPart, UrlCitation, WebSearchItem } from '../hub.js';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';
export type MessagePart = ResponseOutputText | ResponseOutputRefusal;

export function textPart(text: string, annotations: ResponseOutputText['annotations'] = []): ResponseOutputText {
  return { type: 'output_text', text, annotations };
}

/**
 * A page cited by a stretch of the text: the stretch the citation names within the part that
 * runs from `start` to `end` of the whole (UTF-16 offsets, as a JS client slices), else all of it.
 */
export function urlCitation(citation: UrlCitation, start: number, end: number): ResponseOutputText.URLCitation {
  const at = citedStretch(citation, start, end);
  return { type: 'url_citation', url: citation.url, title: citation.title ?? citation.url, start_index: at.start, end_index: at.end };
}

export function refusalPart(refusal: string): ResponseOutputRefusal {
  return { type: 'refusal', refusal };
}

/**
 * Hub parts an assistant message can show: text and refusals (nothing else reaches output).
 * Adjacent texts are one output_text, as OpenAI's models write it: Anthropic splits an answer
 * into text blocks around what it cites, and each block's citations become annotations of its
 * stretch of the whole.
 */
export function messageParts(content: readonly ContentPart[]): MessagePart[] {
  const parts: MessagePart[] = [];
  let text: ResponseOutputText | undefined;
  for (const part of content) {
    if (part.type === 'text') {
      if (!text) parts.push((text = textPart('')));
      const start = text.text.length;
      text.text += part.text;
      for (const c of part.citations ?? []) text.annotations.push(urlCitation(c, start, text.text.length));
    } else if (part.type === 'refusal') {
      parts.push(refusalPart(part.text));
      text = undefined;
    }
  }
  return parts;
}

export function messageItem(id: string, content: MessagePart[], status: ItemStatus, phase?: string): ResponseOutputMessage {
  const item: ResponseOutputMessage = { id, type: 'message', role: 'assistant', status, content };
  if (phase === 'commentary' || phase === 'final_answer') item.phase = phase;
  return item;
}

export function functionCallItem(
  id: string,
  callId: string,
  name: string,
  args: string,
  status: ItemStatus,
  namespace?: string,
): ResponseFunctionToolCall {
  const item: ResponseFunctionToolCall = { id, type: 'function_call', call_id: callId, name, arguments: args, status };
  // Calls of a namespace tool say which namespace they belong to, as OpenAI answers them.
  if (namespace !== undefined) item.namespace = namespace;
  return item;
}

/** A call of a custom (freeform) tool: its input is text, not JSON arguments. */
export function customToolCallItem(
  id: string,
  callId: string,
  name: string,
  input: string,
  status: ItemStatus,
  namespace?: string,
): ResponseCustomToolCallItem {
  const item: ResponseCustomToolCallItem = { id, type: 'custom_tool_call', call_id: callId, name, input, status };
  if (namespace !== undefined) item.namespace = namespace;
  return item;
}

/** A web search the provider ran, as OpenAI reports one (its pages listed, as `include` asks). */
export function webSearchCallItem(id: string, search: WebSearchItem): ResponseFunctionWebSearch {
  const action: ResponseFunctionWebSearch.Search = { type: 'search', sources: search.sources.map((s) => ({ type: 'url' as const, url: s.url })) };
  if (search.query !== undefined) action.query = search.query;
  return { id, type: 'web_search_call', status: search.failed ? 'failed' : 'completed', action };
}

/** The SDK's `output_text` convenience: all output_text of all messages, in order. */
export function outputText(items: ReadonlyArray<{ type: string }>): string {
  let text = '';
  for (const item of items) {
    if (item.type !== 'message') continue;
    for (const part of (item as ResponseOutputMessage).content) if (part.type === 'output_text') text += part.text;
  }
  return text;
}
