/**
 * A whole answer as the stream of hub events that would have carried it: for an upstream that
 * answered a streaming request with one JSON body (gateways and local servers that ignore
 * `stream`), so the client still gets the stream it asked for. The events are the ones the
 * dialects' stream decoders produce for the same answer, in the same order — reasoning text then
 * its proof of origin, each text with its citations, each call's arguments in one piece — so
 * every stream encoder renders them as it renders a real stream.
 */
import type { HubEvent, HubResponse, OutputItem, Usage } from './hub.js';

export function responseEvents(res: HubResponse): HubEvent[] {
  const events: HubEvent[] = [];
  const start: Extract<HubEvent, { type: 'start' }> = { type: 'start', id: res.id, model: res.model };
  if (res.usage) start.usage = inputUsage(res.usage);
  if (res.serviceTier !== undefined) start.serviceTier = res.serviceTier;
  events.push(start);
  let index = 0;
  for (const item of res.output) index = pushItem(events, item, index);
  const finish: Extract<HubEvent, { type: 'finish' }> = { type: 'finish', stopReason: res.stopReason };
  if (res.stopSequence !== undefined) finish.stopSequence = res.stopSequence;
  if (res.usage) finish.usage = res.usage;
  if (res.serviceTier !== undefined) finish.serviceTier = res.serviceTier;
  events.push(finish);
  return events;
}

/** What a stream knows of usage at its start: the input side (Messages' message_start carries it). */
function inputUsage(usage: Usage): Partial<Usage> {
  const out: Partial<Usage> = { inputTokens: usage.inputTokens };
  if (usage.cacheReadTokens !== undefined) out.cacheReadTokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out.cacheWriteTokens = usage.cacheWriteTokens;
  return out;
}

/** The events of one output item, from block `index` on; returns the next free index. */
function pushItem(events: HubEvent[], item: OutputItem, index: number): number {
  switch (item.type) {
    case 'reasoning': {
      if (item.origin.kind === 'anthropic_redacted') {
        // redacted thinking has no text: its data rides on the block's start, as Messages streams it
        events.push({ type: 'block_start', index, block: { type: 'reasoning', origin: item.origin } }, { type: 'block_stop', index });
        return index + 1;
      }
      events.push({ type: 'block_start', index, block: { type: 'reasoning' } });
      if (item.text !== '') events.push({ type: 'reasoning_delta', index, text: item.text });
      events.push({ type: 'reasoning_origin', index, origin: item.origin });
      events.push({ type: 'block_stop', index });
      return index + 1;
    }
    case 'message': {
      for (const part of item.content) {
        if (part.type === 'text') {
          events.push({ type: 'block_start', index, block: { type: 'text' } });
          for (const citation of part.citations ?? []) events.push({ type: 'citation', index, citation });
          const delta: Extract<HubEvent, { type: 'text_delta' }> = { type: 'text_delta', index, text: part.text };
          if (part.logprobs) delta.logprobs = part.logprobs;
          if (part.text !== '' || part.logprobs) events.push(delta);
        } else if (part.type === 'refusal') {
          events.push({ type: 'block_start', index, block: { type: 'refusal' } }, { type: 'refusal_delta', index, text: part.text });
        } else {
          // an answer's media (an image a model drew) has no stream event in any dialect
          continue;
        }
        events.push({ type: 'block_stop', index });
        index++;
      }
      return index;
    }
    case 'function_call': {
      const block: Extract<HubEvent, { type: 'block_start' }>['block'] = { type: 'function_call', callId: item.callId, name: item.name };
      if (item.namespace !== undefined) block.namespace = item.namespace;
      if (item.thoughtSignature !== undefined) block.thoughtSignature = item.thoughtSignature;
      if (item.freeform) block.freeform = true;
      events.push({ type: 'block_start', index, block });
      if (item.arguments !== '') events.push({ type: 'arguments_delta', index, json: item.arguments });
      events.push({ type: 'block_stop', index });
      return index + 1;
    }
    case 'web_search':
      events.push({ type: 'block_start', index, block: { type: 'web_search', search: item } }, { type: 'block_stop', index });
      return index + 1;
  }
}
