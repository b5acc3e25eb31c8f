/** HubResponse → a `chat.completion` object for the Chat client. */
import type { FunctionCallItem, HubResponse, ReasoningItem, TokenLogprob, UrlCitation } from '../hub.js';
import type { ResponseContext } from '../codec.js';
import { citedStretch } from '../citations.js';
import type { Json } from './guards.js';
import { chatCompletionId } from './ids.js';
import { renderClientReasoning } from './reasoning.js';
import { chatFinishReason, legacyFinishReason } from './finish-reason.js';
import { chatLogprobs } from './logprobs.js';
import { usageToChat } from './usage.js';

/** A tool call as the client sees it, with the Gemini thought signature where there is one. */
export function clientToolCall(c: FunctionCallItem): Json {
  const tc: Json = { id: c.callId, type: 'function', function: { name: c.name, arguments: c.arguments } };
  if (c.thoughtSignature) tc.extra_content = { google: { thought_signature: c.thoughtSignature } };
  return tc;
}

/** A cited page as a Chat `url_citation` annotation over its stretch of the message text (`start`–`end` for the part). */
export function urlAnnotation(c: UrlCitation, start: number, end: number): Json {
  const at = citedStretch(c, start, end);
  return { type: 'url_citation', url_citation: { url: c.url, title: c.title ?? c.url, start_index: at.start, end_index: at.end } };
}

export function encodeResponse(res: HubResponse, ctx: ResponseContext): Record<string, unknown> {
  const reasoning: ReasoningItem[] = [];
  const calls: FunctionCallItem[] = [];
  let text = '';
  let refusal = '';
  const annotations: Json[] = [];
  let logprobs: TokenLogprob[] | undefined;
  for (const item of res.output) {
    if (item.type === 'reasoning') reasoning.push(item);
    else if (item.type === 'function_call') calls.push(item);
    // a search the provider ran has no Chat form; its answer text says what it found, and the
    // pages it cites are annotations, as OpenAI's search models give them
    else if (item.type === 'message') {
      for (const p of item.content) {
        if (p.type === 'text') {
          for (const c of p.citations ?? []) annotations.push(urlAnnotation(c, text.length, text.length + p.text.length));
          text += p.text;
          if (p.logprobs) (logprobs ??= []).push(...p.logprobs);
        } else if (p.type === 'refusal') refusal += p.text;
      }
    }
  }
  const message: Json = {
    role: 'assistant',
    // OpenAI sends null, not "", when the turn is only tool calls (or only a refusal).
    content: text || (calls.length > 0 || refusal ? null : ''),
    refusal: refusal || null,
  };
  const legacy = ctx.legacyFunctions === true && calls.length > 0;
  // a `functions` client reads its one call here (the request asked for no parallel calls)
  if (legacy) message.function_call = { name: calls[0]!.name, arguments: calls[0]!.arguments };
  else if (calls.length > 0) message.tool_calls = calls.map(clientToolCall);
  if (annotations.length > 0) message.annotations = annotations;
  const fields = renderClientReasoning(reasoning);
  if (fields) Object.assign(message, fields);

  const finish = chatFinishReason(res.stopReason, calls.length > 0);
  const finishReason = ctx.legacyFunctions === true ? legacyFinishReason(finish) : finish;
  const body: Json = {
    id: chatCompletionId(res.id, ctx.idSuffix),
    object: 'chat.completion',
    created: res.created ?? ctx.created ?? Math.floor(Date.now() / 1000),
    model: ctx.model,
    choices: [{ index: 0, message, finish_reason: finishReason, logprobs: logprobs ? chatLogprobs(logprobs) : null }],
  };
  if (res.usage) body.usage = usageToChat(res.usage);
  if (res.serviceTier) body.service_tier = res.serviceTier;
  return body;
}
