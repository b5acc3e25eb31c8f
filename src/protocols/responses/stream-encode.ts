/**
 * Hub events → the full Responses event sequence for a client: response.created, in_progress,
 * per item output_item.added / content_part.added / deltas / .done events / output_item.done,
 * then response.completed or response.incomplete with the whole output — or, on failure, an
 * `error` event followed by response.failed. Every event is named (`event:` line) and numbered
 * (`sequence_number` from 0). Each hub block is one output item — adjacent text blocks share one,
 * as one output_text — and its output_index is its position in the final output, so interleaved
 * hub blocks are fine.
 */
import type { Response, ResponseCustomToolCallItem, ResponseFunctionToolCall, ResponseOutputText, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { ResponseContext, StreamEncoder } from '../codec.js';
import type { BlockStart, HubError, HubEvent, ReasoningOrigin, StopReason, UrlCitation, Usage, WebSearchItem } from '../hub.js';
import { sseNamed } from '../sse.js';
import { responseFailedCode } from '../errors.js';
import { chooseSuffix, itemId } from './ids.js';
import { answerCallIds } from '../call-id-reuse.js';
import { customToolCallItem, functionCallItem, messageItem, refusalPart, textPart, urlCitation, webSearchCallItem, type ItemStatus } from './output-items.js';
import { wireReasoningItem } from './reasoning.js';
import { requestFields, responseObject } from './response-encode.js';
import { statusFor } from './status.js';
import { mergeUsage, usageToWire } from './usage.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Payload = DistributiveOmit<ResponseStreamEvent, 'sequence_number'>;

interface Block {
  kind: BlockStart['type'];
  outputIndex: number;
  id: string;
  /** Accumulated text / refusal / reasoning / arguments (the final output needs it whole). */
  text: string;
  open: boolean;
  callId: string;
  name: string;
  namespace?: string;
  /** A call of a custom tool: a custom_tool_call item, its text streamed as input deltas. */
  freeform: boolean;
  origin?: ReasoningOrigin;
  /** Reasoning: the summary part has been announced. */
  partOpen: boolean;
  /** A web search block: the search, whole. */
  search?: WebSearchItem;
  /** A text item: the pages its stretches cite, as annotations. */
  annotations?: ResponseOutputText.URLCitation[];
}

/** One hub text block within a text item (adjacent text blocks share one item): where it starts. */
interface Stretch {
  start: number;
  citations?: UrlCitation[];
}

export function createStreamEncoder(ctx: ResponseContext): StreamEncoder {
  return new ResponsesStreamEncoder(ctx);
}

class ResponsesStreamEncoder implements StreamEncoder {
  private seq = 0;
  private suffix = '';
  private createdAt = 0;
  private started = false;
  private done = false;
  private readonly blocks = new Map<number, Block>();
  /** Hub text blocks by index: their stretch of their item's text. */
  private readonly stretches = new Map<number, Stretch>();
  /**
   * The message or call item whose hub block stopped last, left open until the next block starts
   * or the answer ends: an adjacent text block goes on in a text item (Anthropic splits an answer
   * into text blocks around what it cites), and an answer cut at max_output_tokens was cut in this
   * item, which then closes incomplete, as the whole answer marks it (upstreams stop a block
   * before they say why).
   */
  private lingering: Block | undefined;
  /** Final items by output_index (snapshots of open items until they close). */
  private readonly output: object[] = [];
  private readonly usage: Partial<Usage> = {};

  /** Fresh ids for calls that reuse one of the conversation's (call-id-reuse.ts). */
  private readonly callId: (id: string) => string;

  constructor(private readonly ctx: ResponseContext) {
    this.callId = answerCallIds(ctx.callIdTaken);
  }

  encode(event: HubEvent): string {
    if (this.done) return '';
    const sse = event.type === 'start' ? '' : this.ensureStarted();
    switch (event.type) {
      case 'start':
        mergeUsage(this.usage, event.usage);
        return this.ensureStarted(event.id);
      case 'block_start':
        return sse + this.blockStart(event.index, event.block);
      case 'text_delta':
      case 'refusal_delta':
      case 'reasoning_delta':
      case 'arguments_delta':
        return sse + this.delta(event.index, event.type, event.type === 'arguments_delta' ? event.json : event.text);
      case 'reasoning_origin': {
        const block = this.blocks.get(event.index);
        if (block?.kind === 'reasoning') block.origin = event.origin;
        return sse;
      }
      case 'citation': {
        const stretch = this.stretches.get(event.index);
        if (stretch) (stretch.citations ??= []).push(event.citation);
        return sse;
      }
      case 'block_stop': {
        const block = this.blocks.get(event.index);
        if (!block) return sse;
        // reasoning and web search items have no status to give: their done goes out now (a paused
        // turn may wait long for its continuation after a search)
        if (block.kind === 'reasoning' || block.kind === 'web_search' || !block.open) return sse + this.close(block, 'completed');
        if (block.kind === 'text') this.endStretch(event.index, block);
        // blocks stopped one after another (a Chat upstream's calls, stopped at its finish): only the last waits
        const closed = this.lingering !== block ? this.closeLingering() : '';
        this.lingering = block;
        return sse + closed;
      }
      case 'usage':
        mergeUsage(this.usage, event.usage);
        return sse;
      case 'finish':
        mergeUsage(this.usage, event.usage);
        return sse + this.finish(event.stopReason);
      case 'error':
        return sse + this.fail(event.error);
    }
  }

  private ensureStarted(upstreamId?: string): string {
    if (this.started) return '';
    this.started = true;
    this.suffix = chooseSuffix(this.ctx.idSuffix, upstreamId, this.ctx.idTaken);
    this.createdAt = this.ctx.created ?? Math.floor(Date.now() / 1000);
    const response = this.response('in_progress', null, null);
    return this.emit({ type: 'response.created', response }) + this.emit({ type: 'response.in_progress', response });
  }

  private blockStart(index: number, start: BlockStart): string {
    if (this.blocks.has(index)) return '';
    const lingering = this.lingering;
    this.lingering = undefined;
    if (lingering?.open && lingering.kind === 'text' && start.type === 'text') {
      this.blocks.set(index, lingering);
      this.stretches.set(index, { start: lingering.text.length });
      return '';
    }
    return (lingering ? this.close(lingering, 'completed') : '') + this.openBlock(index, start);
  }

  /** The stretch of hub block `index` ends: its citations become annotations of what it wrote. */
  private endStretch(index: number, block: Block): void {
    const stretch = this.stretches.get(index);
    if (!stretch) return;
    this.stretches.delete(index);
    for (const c of stretch.citations ?? []) (block.annotations ??= []).push(urlCitation(c, stretch.start, block.text.length));
  }

  private openBlock(index: number, start: BlockStart): string {
    const outputIndex = this.output.length;
    const block: Block = { kind: start.type, outputIndex, id: '', text: '', open: true, callId: '', name: '', freeform: false, partOpen: false };
    this.blocks.set(index, block);
    switch (start.type) {
      case 'text':
      case 'refusal': {
        if (start.type === 'text') this.stretches.set(index, { start: 0 });
        block.id = itemId('msg', this.suffix, outputIndex);
        const item = messageItem(block.id, [], 'in_progress');
        this.output.push(item);
        const part = start.type === 'text' ? textPart('') : refusalPart('');
        return (
          this.emit({ type: 'response.output_item.added', output_index: outputIndex, item }) +
          this.emit({ type: 'response.content_part.added', item_id: block.id, output_index: outputIndex, content_index: 0, part })
        );
      }
      case 'reasoning': {
        if (start.origin) block.origin = start.origin;
        block.id = start.origin?.kind === 'openai' ? start.origin.id : itemId('rs', this.suffix, outputIndex);
        const item = { type: 'reasoning' as const, id: block.id, summary: [] };
        this.output.push(item);
        return this.emit({ type: 'response.output_item.added', output_index: outputIndex, item });
      }
      case 'function_call': {
        block.freeform = start.freeform === true;
        block.id = itemId(block.freeform ? 'ctc' : 'fc', this.suffix, outputIndex);
        block.callId = this.callId(start.callId);
        block.name = start.name;
        if (start.namespace !== undefined) block.namespace = start.namespace;
        const item = this.callItem(block, 'in_progress');
        this.output.push(item);
        return this.emit({ type: 'response.output_item.added', output_index: outputIndex, item });
      }
      case 'web_search': {
        block.id = start.search.id;
        block.search = start.search;
        const item = webSearchCallItem(block.id, { ...start.search, sources: [] });
        item.status = 'in_progress';
        this.output.push(item);
        return this.emit({ type: 'response.output_item.added', output_index: outputIndex, item });
      }
    }
  }

  private delta(index: number, type: 'text_delta' | 'refusal_delta' | 'reasoning_delta' | 'arguments_delta', delta: string): string {
    const block = this.blocks.get(index);
    if (!block || !block.open || delta.length === 0 || DELTA_KIND[type] !== block.kind) return '';
    block.text += delta;
    const at = { item_id: block.id, output_index: block.outputIndex };
    switch (block.kind) {
      case 'text':
        return this.emit({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] });
      case 'refusal':
        return this.emit({ type: 'response.refusal.delta', ...at, content_index: 0, delta });
      case 'function_call':
        return block.freeform
          ? this.emit({ type: 'response.custom_tool_call_input.delta', ...at, delta })
          : this.emit({ type: 'response.function_call_arguments.delta', ...at, delta });
      case 'web_search':
        return '';
      case 'reasoning': {
        let sse = '';
        if (!block.partOpen) {
          block.partOpen = true;
          sse = this.emit({ type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: { type: 'summary_text', text: '' } });
        }
        return sse + this.emit({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta });
      }
    }
  }

  /** Emits the closing events of a block and stores its final item at its output position. */
  private close(block: Block, status: ItemStatus): string {
    if (!block.open) return '';
    block.open = false;
    const at = { item_id: block.id, output_index: block.outputIndex };
    let sse = '';
    switch (block.kind) {
      case 'text':
        // a stream cut short leaves its last stretch unended
        for (const [index, b] of this.blocks) if (b === block) this.endStretch(index, block);
        (block.annotations ?? []).forEach((annotation, i) => {
          sse += this.emit({ type: 'response.output_text.annotation.added', ...at, content_index: 0, annotation_index: i, annotation });
        });
        sse += this.emit({ type: 'response.output_text.done', ...at, content_index: 0, text: block.text, logprobs: [] });
        sse += this.emit({ type: 'response.content_part.done', ...at, content_index: 0, part: textPart(block.text, block.annotations) });
        break;
      case 'refusal':
        sse += this.emit({ type: 'response.refusal.done', ...at, content_index: 0, refusal: block.text });
        sse += this.emit({ type: 'response.content_part.done', ...at, content_index: 0, part: refusalPart(block.text) });
        break;
      case 'function_call': {
        if (block.freeform) {
          sse += this.emit({ type: 'response.custom_tool_call_input.done', ...at, input: block.text });
          break;
        }
        // a tool without parameters (Anthropic streams no input delta for it): `{}`, which clients
        // JSON.parse, as a whole answer gives it
        if (block.text === '') sse += this.emit({ type: 'response.function_call_arguments.delta', ...at, delta: (block.text = '{}') });
        const done: Payload & { namespace?: string } = { type: 'response.function_call_arguments.done', ...at, arguments: block.text, name: block.name };
        // The SDK type lacks it, but the item says it too: a client matching by name needs both.
        // Set, not spread onto a copy: on Node 20 such a copy gets a hidden class per call.
        if (block.namespace !== undefined) done.namespace = block.namespace;
        sse += this.emit(done);
        break;
      }
      case 'reasoning':
        if (block.partOpen) {
          const part = { type: 'summary_text' as const, text: block.text };
          sse += this.emit({ type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text: block.text });
          sse += this.emit({ type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part });
        }
        break;
      case 'web_search':
        if (!block.search?.failed) sse += this.emit({ type: 'response.web_search_call.completed', ...at });
        break;
    }
    const item = this.finalItem(block, status);
    this.output[block.outputIndex] = item;
    return sse + this.emit({ type: 'response.output_item.done', output_index: block.outputIndex, item } as Payload);
  }

  private finalItem(block: Block, status: ItemStatus): object {
    switch (block.kind) {
      case 'text':
        return messageItem(block.id, [textPart(block.text, block.annotations)], status);
      case 'refusal':
        return messageItem(block.id, [refusalPart(block.text)], status);
      case 'function_call':
        return this.callItem(block, status);
      case 'reasoning':
        // Reasoning without a known origin is plain text: it still round-trips, as unsigned.
        return wireReasoningItem(block.origin ?? { kind: 'unsigned' }, block.text, block.id);
      case 'web_search':
        return webSearchCallItem(block.id, block.search!);
    }
  }

  /** A call block's item as it stands: a function_call, or a custom_tool_call for a freeform call. */
  private callItem(block: Block, status: ItemStatus): ResponseFunctionToolCall | ResponseCustomToolCallItem {
    const make = block.freeform ? customToolCallItem : functionCallItem;
    return make(block.id, block.callId, block.name, block.text, status, block.namespace);
  }

  private finish(stopReason: StopReason): string {
    const hasRefusalPart = [...this.blocks.values()].some((b) => b.kind === 'refusal');
    const terminal = statusFor(stopReason, hasRefusalPart);
    // Items still open when the answer was cut short are themselves incomplete, and so is the item
    // that ended an answer cut at max_output_tokens (upstreams stop a block before they say why:
    // its stop is no sign it was whole)
    const status = terminal.status === 'incomplete' ? 'incomplete' : 'completed';
    let sse = this.closeLingering(terminal.incomplete_details?.reason === 'max_output_tokens' ? 'incomplete' : 'completed');
    sse += this.closeAll(status);
    const response = this.response(terminal.status, terminal.incomplete_details, null);
    const final = response as unknown as Record<string, unknown>;
    // (`store` is on the wire; the SDK's Response type leaves it out)
    if (this.ctx.onFinal?.(final) === false) final.store = false;
    sse += this.emit(
      terminal.status === 'completed' ? { type: 'response.completed', response } : { type: 'response.incomplete', response },
    );
    this.done = true;
    return sse;
  }

  private fail(error: HubError): string {
    let sse = this.closeLingering();
    for (const block of this.blocks.values()) {
      if (block.open) this.output[block.outputIndex] = this.finalItem(block, 'incomplete');
    }
    sse += this.emit({ type: 'error', code: error.code, message: error.message, param: error.param ?? null });
    const response = this.response('failed', null, { code: responseFailedCode(error), message: error.message });
    sse += this.emit({ type: 'response.failed', response });
    this.done = true;
    return sse;
  }

  private closeLingering(status: ItemStatus = 'completed'): string {
    const lingering = this.lingering;
    this.lingering = undefined;
    return lingering ? this.close(lingering, status) : '';
  }

  private closeAll(status: ItemStatus): string {
    let sse = '';
    const open = [...this.blocks.values()].filter((b) => b.open).sort((a, b) => a.outputIndex - b.outputIndex);
    for (const block of open) sse += this.close(block, status);
    return sse;
  }

  private response(status: 'in_progress' | 'completed' | 'incomplete' | 'failed', incompleteDetails: { reason: string } | null, error: { code: string; message: string } | null): Response {
    return responseObject({
      id: `resp_${this.suffix}`,
      createdAt: this.createdAt,
      model: this.ctx.model,
      status,
      incompleteDetails,
      output: status === 'in_progress' ? [] : [...this.output],
      usage: status === 'in_progress' ? null : usageToWire(this.usage),
      error,
      ...requestFields(this.ctx),
    }) as unknown as Response;
  }

  private emit(payload: Payload): string {
    const { type, ...rest } = payload;
    return sseNamed(type, { type, sequence_number: this.seq++, ...rest });
  }
}

const DELTA_KIND: Record<'text_delta' | 'refusal_delta' | 'reasoning_delta' | 'arguments_delta', BlockStart['type']> = {
  text_delta: 'text',
  refusal_delta: 'refusal',
  reasoning_delta: 'reasoning',
  arguments_delta: 'function_call',
};
