/**
 * Every converted stream of the pair goldens, read by the client dialect's official SDK helper
 * (its own SSE parser and accumulator): a stream that failed upstream makes the SDK throw with
 * the upstream's message; any other builds a final answer that says what the non-streamed
 * conversion of the same upstream answer says — text, tool calls with ids and arguments,
 * reasoning with its proof, stop reason and usage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResponseContext } from '../../../src/protocols/codec.js';
import type { HubEvent, HubResponse, OutputItem, ReasoningItem, TextPart, UrlCitation } from '../../../src/protocols/hub.js';
import { namesIn, plain, readJson, type Loose } from '../shared/helpers.js';
import { CODECS, contextFor, convertStream, FIXTURES, PAIRS, upstreamEvents } from './harness.js';
import { sdkFinal } from './sdk-readers.js';

/** The answer a stream told, rebuilt from its hub events (what a non-streamed call would return). */
function answerOf(events: HubEvent[]): HubResponse {
  const res: HubResponse = { id: '', model: '', output: [], stopReason: 'end_turn' };
  const blocks = new Map<number, OutputItem>();
  /** Text and refusal blocks' parts: adjacent text blocks are parts of one message, as a whole answer has them. */
  const parts = new Map<number, { text: string; citations?: UrlCitation[] }>();
  for (const ev of events) {
    switch (ev.type) {
      case 'start':
        res.id = ev.id ?? '';
        res.model = ev.model ?? '';
        if (ev.usage) res.usage = { inputTokens: 0, outputTokens: 0, ...res.usage, ...ev.usage };
        break;
      case 'block_start': {
        const b = ev.block;
        const last = res.output.at(-1);
        if (b.type === 'text' && last?.type === 'message' && last.content.at(-1)?.type === 'text') {
          const part: TextPart = { type: 'text', text: '' };
          last.content.push(part);
          parts.set(ev.index, part);
          break;
        }
        const item: OutputItem =
          b.type === 'web_search'
            ? b.search
            : b.type === 'reasoning'
            ? { type: 'reasoning', text: '', origin: b.origin ?? { kind: 'unsigned' } }
            : b.type === 'function_call'
              ? { type: 'function_call', callId: b.callId, name: b.name, arguments: '', ...(b.thoughtSignature ? { thoughtSignature: b.thoughtSignature } : {}) }
              : { type: 'message', role: 'assistant', content: [{ type: b.type, text: '' }] };
        blocks.set(ev.index, item);
        if (item.type === 'message') parts.set(ev.index, item.content[0] as TextPart);
        res.output.push(item);
        break;
      }
      case 'text_delta':
      case 'refusal_delta':
        parts.get(ev.index)!.text += ev.text;
        break;
      case 'reasoning_delta':
        (blocks.get(ev.index) as ReasoningItem).text += ev.text;
        break;
      case 'citation': {
        const part = parts.get(ev.index)!;
        (part.citations ??= []).push(ev.citation);
        break;
      }
      case 'reasoning_origin':
        (blocks.get(ev.index) as ReasoningItem).origin = ev.origin;
        break;
      case 'arguments_delta': {
        const call = blocks.get(ev.index);
        if (call?.type === 'function_call') call.arguments += ev.json;
        break;
      }
      case 'usage':
      case 'finish':
        if (ev.usage) res.usage = { inputTokens: 0, outputTokens: 0, ...res.usage, ...ev.usage };
        if (ev.type === 'finish') {
          res.stopReason = ev.stopReason;
          if (ev.stopSequence !== undefined) res.stopSequence = ev.stopSequence;
        }
        break;
      default:
        break;
    }
  }
  // Empty text blocks show nothing in either form.
  res.output = res.output.filter((i) => i.type !== 'message' || i.content.some((p) => (p as { text: string }).text !== ''));
  return res;
}

/** Text blocks without `citations` and adjacent texts joined: the two forms may split text differently. */
function messagesView(body: Loose): unknown {
  const content: Loose[] = [];
  for (const block of body.content as Loose[]) {
    const { citations: _c, ...rest } = block;
    const last = content[content.length - 1];
    if (rest.type === 'text' && last?.type === 'text') last.text += rest.text;
    else content.push(rest);
  }
  return { content, stop_reason: body.stop_reason, stop_sequence: body.stop_sequence, usage: body.usage };
}

function chatView(body: Loose, includeUsage: boolean | undefined): unknown {
  const choice = body.choices[0];
  const m = choice.message;
  return {
    content: m.content || null,
    refusal: m.refusal ?? null,
    tool_calls: m.tool_calls?.map((tc: Loose) => ({ id: tc.id, type: tc.type, function: { name: tc.function.name, arguments: tc.function.arguments }, ...(tc.extra_content ? { extra_content: tc.extra_content } : {}) })),
    // The stream helper keeps only the last delta's reasoning fields (Object.assign): the proof must be whole there.
    reasoning_details: m.reasoning_details,
    thinking_blocks: m.thinking_blocks,
    finish_reason: choice.finish_reason,
    usage: includeUsage ? body.usage : undefined,
  };
}

function responsesView(body: Loose): unknown {
  // The SDK adds `parsed` / `parsed_arguments` (its structured-output helpers).
  const output = JSON.parse(JSON.stringify(body.output, (key, value: unknown) => (key === 'parsed' || key === 'parsed_arguments' ? undefined : value)));
  return { status: body.status, incomplete_details: body.incomplete_details, output, usage: body.usage };
}

for (const { client, upstream, dir } of PAIRS) {
  describe(`${dir}: the client's official SDK reads every converted stream`, () => {
    const base = join(FIXTURES, dir, 'stream');
    for (const name of namesIn(base, '.json')) {
      it(name, async () => {
        const c = readJson<{ model: string; includeUsage?: boolean }>(join(base, `${name}.json`));
        const bytes = readFileSync(join(base, `${name}.upstream.sse`));
        const ctx: ResponseContext = contextFor(client, c.model, c.includeUsage);
        const sse = convertStream(client, upstream, [bytes], ctx);
        const events = upstreamEvents(upstream, [bytes]);
        const failure = events.find((e) => e.type === 'error');
        if (failure?.type === 'error') {
          await expect(sdkFinal(client, sse)).rejects.toMatchObject({ message: expect.stringContaining(failure.error.message) });
          return;
        }
        const final = plain(await sdkFinal(client, sse)) as Loose;
        const whole = plain(CODECS[client].encodeResponse(answerOf(events), ctx)) as Loose;
        if (client === 'chat') expect(chatView(final, c.includeUsage)).toEqual(chatView(whole, c.includeUsage));
        else if (client === 'responses') expect(responsesView(final)).toEqual(responsesView(whole));
        else expect(messagesView(final)).toEqual(messagesView(whole));
      });
    }
  });
}
