/**
 * What a real client makes of a stream the proxy wrote: the official SDKs' own SSE parsing and
 * stream accumulators (openai-node's ChatCompletionStream and ResponseStream, @anthropic-ai/sdk's
 * MessageStream), fed from memory instead of a socket. Test-only: web streams are fine here.
 */
import { Stream as AnthropicStream } from '@anthropic-ai/sdk/core/streaming';
import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import type { Message } from '@anthropic-ai/sdk/resources/messages/messages';
import { Stream as OpenAIStream } from 'openai/core/streaming';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import type { ChatCompletion } from 'openai/resources/chat/completions/completions';
import type { Response as OpenAIResponse } from 'openai/resources/responses/responses';
import type { Dialect } from '../../../src/protocols/hub.js';

function sseResponse(text: string): Response {
  return new Response(text, { headers: { 'content-type': 'text/event-stream' } });
}

/** `client.chat.completions.stream(…).finalChatCompletion()` over this SSE text. */
export function chatFinal(sse: string): Promise<ChatCompletion> {
  const stream = OpenAIStream.fromSSEResponse(sseResponse(sse), new AbortController());
  return ChatCompletionStream.fromReadableStream(stream.toReadableStream()).finalChatCompletion();
}

/** `client.responses.stream(…).finalResponse()` over this SSE text. */
export function responsesFinal(sse: string): Promise<OpenAIResponse> {
  const stream = OpenAIStream.fromSSEResponse(sseResponse(sse), new AbortController());
  return ResponseStream.fromReadableStream(stream.toReadableStream()).finalResponse();
}

/** `client.messages.stream(…).finalMessage()` over this SSE text. */
export function messagesFinal(sse: string): Promise<Message> {
  const stream = AnthropicStream.fromSSEResponse(sseResponse(sse), new AbortController());
  return MessageStream.fromReadableStream(stream.toReadableStream()).finalMessage();
}

/** The final answer object the client dialect's SDK builds from the stream. */
export function sdkFinal(client: Dialect, sse: string): Promise<ChatCompletion | OpenAIResponse | Message> {
  if (client === 'chat') return chatFinal(sse);
  if (client === 'responses') return responsesFinal(sse);
  return messagesFinal(sse);
}
