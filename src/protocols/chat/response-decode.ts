/**
 * A non-streamed upstream chat.completion → HubResponse. Upstream bodies are not client input:
 * shape problems are a 502 `upstream_invalid_response`, an error object a mapped `upstream_error`.
 */
import type { ContentPart, HubResponse, MessageItem, OutputItem } from '../hub.js';
import type { DecodeOptions } from '../codec.js';
import { ProtocolError } from '../errors.js';
import { isRecord, num, str, type Json } from './guards.js';
import { upstreamReasoningItem } from './reasoning.js';
import { ABORTED, ABORTED_MESSAGE, endedOwnTurn, refusedTurn, stopReasonFromChat } from './finish-reason.js';
import { chatUsageOf, usageFromChat } from './usage.js';
import { upstreamError } from './upstream-error.js';
import { splitThinkTags } from './think-tags.js';
import { contentText, readMessageToolCalls } from './upstream-read.js';

function invalid(message: string): ProtocolError {
  return new ProtocolError(502, 'upstream_invalid_response', `The upstream returned an invalid chat completion: ${message}.`);
}

function firstChoice(choices: unknown[]): Json | undefined {
  const records = choices.filter(isRecord);
  return records.find((c) => c.index === 0 || c.index === undefined) ?? records[0];
}

export function decodeResponse(raw: unknown, opts: DecodeOptions = {}): HubResponse {
  if (!isRecord(raw)) throw invalid('the body is not a JSON object');
  if (raw.error !== undefined && raw.error !== null) {
    const e = upstreamError(raw.error, 'The upstream reported an error.', opts.now);
    throw new ProtocolError(e.status, e.code, e.message);
  }
  if (!Array.isArray(raw.choices)) throw invalid('choices is missing');
  const choice = firstChoice(raw.choices);
  if (!choice) throw invalid('choices is empty');
  if (choice.finish_reason === 'error') {
    const e = upstreamError(choice.error ?? raw.error, 'The upstream stopped with an error.', opts.now);
    throw new ProtocolError(e.status, e.code, e.message);
  }
  if (choice.finish_reason === ABORTED) {
    const e = upstreamError(undefined, ABORTED_MESSAGE);
    throw new ProtocolError(e.status, e.code, e.message);
  }
  const message = isRecord(choice.message) ? choice.message : {};
  const id = str(raw.id) ?? '';

  const calls = readMessageToolCalls(message, id || undefined);
  const stopReason = stopReasonFromChat(choice.finish_reason, choice.native_finish_reason, calls.length > 0);
  const output: OutputItem[] = [];
  let text = contentText(message.content);
  const reasoning = upstreamReasoningItem(message);
  if (reasoning) output.push(reasoning);
  else if (text) {
    // no reasoning field: the content may lead with it as <think>…</think>. Looking flattens a
    // content over 32 KB read as a rope (rope-decode.ts) once; only whole Chat answers pay it.
    const split = splitThinkTags(text, { startsInside: opts.startsInsideThink, turnEnded: endedOwnTurn(stopReason) });
    if (split.reasoning) output.push({ type: 'reasoning', text: split.reasoning, origin: { kind: 'unsigned' } });
    text = split.text;
  }
  const content: ContentPart[] = [];
  if (text) content.push({ type: 'text', text });
  const refusal = str(message.refusal);
  if (refusal) content.push({ type: 'refusal', text: refusal });
  if (content.length > 0) {
    const item: MessageItem = { type: 'message', role: 'assistant', content };
    output.push(item);
  }
  output.push(...calls);

  const res: HubResponse = { id, model: str(raw.model) ?? '', output, stopReason: refusedTurn(stopReason, refusal !== undefined && refusal !== '', text !== '') };
  // vLLM reports the matched stop string in `stop_reason`.
  const matched = str(choice.stop_reason);
  if (matched && choice.finish_reason === 'stop') {
    res.stopReason = 'stop_sequence';
    res.stopSequence = matched;
  }
  const usage = usageFromChat(chatUsageOf(raw));
  if (usage) res.usage = usage;
  const created = num(raw.created);
  if (created !== undefined) res.created = created;
  return res;
}
