/**
 * A stream of hub events folded into the whole answer it carried: for an upstream that answers a
 * request for one JSON body with an event stream anyway (gateways and local servers that stream
 * whatever `stream` says), so the client still gets the whole answer it asked for. The inverse of
 * response-events.ts: blocks become output items in order of first appearance (interleaved
 * parallel calls included), consecutive text and refusal blocks one assistant message, usage the
 * last value of each field.
 */
import type { StreamDecoder } from './codec.js';
import type { FunctionCallItem, HubError, HubEvent, HubResponse, MessageItem, OutputItem, ReasoningItem, RefusalPart, StopReason, TextPart, Usage } from './hub.js';
import { SseParser, type SseEvent, type SseParserOptions } from './sse.js';

type Block = { kind: 'text'; part: TextPart } | { kind: 'refusal'; part: RefusalPart } | { kind: 'reasoning'; item: ReasoningItem } | { kind: 'call'; item: FunctionCallItem } | { kind: 'other' };

export class AnswerAssembler {
  private id: string | undefined;
  private model: string | undefined;
  private serviceTier: string | undefined;
  private usage: Partial<Usage> = {};
  private stopReason: StopReason | undefined;
  private stopSequence: string | undefined;
  private readonly output: OutputItem[] = [];
  private readonly blocks = new Map<number, Block>();
  /** The message the next text or refusal block joins (none once another kind of item follows it). */
  private message: MessageItem | undefined;
  private failure: HubError | undefined;

  /** Take one event; false once the stream failed or finished (later events are ignored). */
  push(ev: HubEvent): boolean {
    if (this.failure || this.stopReason) return false;
    switch (ev.type) {
      case 'start':
        if (ev.id) this.id = ev.id;
        if (ev.model) this.model = ev.model;
        if (ev.serviceTier !== undefined) this.serviceTier = ev.serviceTier;
        this.addUsage(ev.usage);
        break;
      case 'block_start':
        this.open(ev.index, ev.block);
        break;
      case 'text_delta': {
        const b = this.blocks.get(ev.index);
        if (b?.kind !== 'text') break;
        b.part.text += ev.text;
        if (ev.logprobs) (b.part.logprobs ??= []).push(...ev.logprobs);
        break;
      }
      case 'refusal_delta': {
        const b = this.blocks.get(ev.index);
        if (b?.kind === 'refusal') b.part.text += ev.text;
        break;
      }
      case 'reasoning_delta': {
        const b = this.blocks.get(ev.index);
        if (b?.kind === 'reasoning') b.item.text += ev.text;
        break;
      }
      case 'reasoning_origin': {
        const b = this.blocks.get(ev.index);
        if (b?.kind === 'reasoning') b.item.origin = ev.origin;
        break;
      }
      case 'arguments_delta': {
        const b = this.blocks.get(ev.index);
        if (b?.kind === 'call') b.item.arguments += ev.json;
        break;
      }
      case 'citation': {
        const b = this.blocks.get(ev.index);
        if (b?.kind === 'text') (b.part.citations ??= []).push(ev.citation);
        break;
      }
      case 'block_stop':
        break;
      case 'usage':
        this.addUsage(ev.usage);
        break;
      case 'finish':
        this.stopReason = ev.stopReason;
        if (ev.stopSequence !== undefined) this.stopSequence = ev.stopSequence;
        if (ev.serviceTier !== undefined) this.serviceTier = ev.serviceTier;
        this.addUsage(ev.usage);
        return false;
      case 'error':
        this.failure = ev.error;
        return false;
    }
    return true;
  }

  /**
   * The whole answer, or the error the stream ended with. A stream that ended without finishing is
   * reported by its decoder's end() (an error event), so call that before this.
   */
  result(fallbackModel: string): HubResponse | { error: HubError } {
    if (this.failure) return { error: this.failure };
    if (!this.stopReason) return { error: { status: 502, code: 'upstream_invalid_response', message: 'the event stream ended before the answer finished' } };
    const res: HubResponse = { id: this.id ?? '', model: this.model ?? fallbackModel, output: this.output, stopReason: this.stopReason };
    if (this.stopSequence !== undefined) res.stopSequence = this.stopSequence;
    const u = this.usage;
    // the counts that came, onto a literal of the two required ones: a spread copy of them that
    // gained the missing one would get a hidden class of its own per answer on Node 20
    if (u.inputTokens !== undefined || u.outputTokens !== undefined) res.usage = Object.assign({ inputTokens: 0, outputTokens: 0 }, u);
    if (this.serviceTier !== undefined) res.serviceTier = this.serviceTier;
    return res;
  }

  private open(index: number, block: Extract<HubEvent, { type: 'block_start' }>['block']): void {
    if (this.blocks.has(index)) return;
    switch (block.type) {
      case 'text': {
        const part: TextPart = { type: 'text', text: '' };
        this.messageFor().content.push(part);
        this.blocks.set(index, { kind: 'text', part });
        return;
      }
      case 'refusal': {
        const part: RefusalPart = { type: 'refusal', text: '' };
        this.messageFor().content.push(part);
        this.blocks.set(index, { kind: 'refusal', part });
        return;
      }
      case 'reasoning': {
        const item: ReasoningItem = { type: 'reasoning', text: '', origin: block.origin ?? { kind: 'unsigned' } };
        this.add(item);
        this.blocks.set(index, { kind: 'reasoning', item });
        return;
      }
      case 'function_call': {
        const item: FunctionCallItem = { type: 'function_call', callId: block.callId, name: block.name, arguments: '' };
        if (block.namespace !== undefined) item.namespace = block.namespace;
        if (block.thoughtSignature !== undefined) item.thoughtSignature = block.thoughtSignature;
        if (block.freeform) item.freeform = true;
        this.add(item);
        this.blocks.set(index, { kind: 'call', item });
        return;
      }
      case 'web_search':
        this.add(block.search);
        this.blocks.set(index, { kind: 'other' });
        return;
    }
  }

  private messageFor(): MessageItem {
    if (this.message) return this.message;
    const message: MessageItem = { type: 'message', role: 'assistant', content: [] };
    this.output.push(message);
    this.message = message;
    return message;
  }

  private add(item: OutputItem): void {
    this.output.push(item);
    this.message = undefined;
  }

  private addUsage(usage: Partial<Usage> | undefined): void {
    if (!usage) return;
    for (const [k, v] of Object.entries(usage) as [keyof Usage, number | undefined][]) if (v !== undefined) this.usage[k] = v;
  }
}

/**
 * A whole event-stream body, decoded with the upstream dialect's stream decoder, as the answer it
 * carried or the error it ended with. Throws what the parser or the decoder throws on a malformed
 * stream (SseEventTooLarge, a bad event's JSON). `tap` sees each raw event the decoder is given
 * (a caller that needs the upstream's own blocks too: a paused turn sent back verbatim).
 */
export function answerFromEventStream(
  body: Uint8Array,
  decoder: StreamDecoder,
  fallbackModel: string,
  parsing: SseParserOptions & { maxEventBytes?: number } = {},
  tap?: (ev: SseEvent) => void,
): HubResponse | { error: HubError } {
  const assembler = new AnswerAssembler();
  let going = true;
  const take = (events: HubEvent[]): void => {
    for (let i = 0; i < events.length && going; i++) going = assembler.push(events[i]!);
  };
  const parser = new SseParser((ev: SseEvent) => {
    if (!going) return;
    tap?.(ev);
    take(decoder.push(ev));
  }, parsing.maxEventBytes, parsing);
  parser.push(body);
  // a last event without its blank line still counts, as it does in a relayed stream
  if (going) parser.end();
  if (going) take(decoder.end());
  return assembler.result(fallbackModel);
}
