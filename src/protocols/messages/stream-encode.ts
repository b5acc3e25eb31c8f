/**
 * Hub events → the event stream a Messages client reads (and the official SDK accepts).
 *
 * Messages blocks are strictly sequential: one block open at a time, indices 0,1,2… in order.
 * The hub may interleave deltas of several open blocks (parallel tool calls from a Chat
 * upstream), so one hub block is "current" and writes through; blocks started meanwhile wait in
 * order with their deltas buffered, and are written out, complete and in order, when their turn
 * comes. Text and thinking blocks open lazily, on their first content, so an empty text block or
 * an unsigned, empty thinking block never reaches the client (it would be sent back and
 * rejected). A thinking block's proof of origin goes out as `signature_delta` right before its
 * `content_block_stop`. A client that asked `display: "omitted"` gets no thinking deltas: the
 * block opens empty and its text rides in the signature where a provider wants it back.
 */
import type {
  Message,
  MessageDeltaUsage,
  RawContentBlockDeltaEvent,
  RawContentBlockStartEvent,
  RawMessageDeltaEvent,
  RawMessageStartEvent,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { ResponseContext, StreamEncoder } from '../codec.js';
import type { BlockStart, HubError, HubEvent, ReasoningOrigin, Usage, WebSearchItem } from '../hub.js';
import { anthropicErrorBody } from '../errors.js';
import { sseNamed } from '../sse.js';
import { contextManagementOf } from './context-edits.js';
import { clientMessageId, syntheticToolUseId, toolUseId } from './ids.js';
import { answerCallIds } from '../call-id-reuse.js';
import { messagesUsage } from './response-encode.js';
import { stopDetails } from './stop-details.js';
import { messagesStopReason } from './stop-reason.js';
import { omittedSignatureFor, signatureFor } from './thinking.js';
import { anthropicUsage, mergeUsage } from './usage.js';
import { queryInput, serverToolUsage, serverToolUseBlock, webSearchResultBlock } from './web-search.js';

interface Block {
  start: BlockStart;
  /** Client-side index once its content_block_start went out. */
  clientIndex?: number;
  /** Opened as redacted_thinking (takes no deltas). */
  redacted?: boolean;
  /** Deltas not yet written (block waiting its turn, or not opened yet). */
  pending: string;
  /** Reasoning text kept back (`display: "omitted"`): it goes out only inside the signature. */
  omitted?: string;
  origin?: ReasoningOrigin;
  /** The hub said block_stop. */
  stopped: boolean;
  /** content_block_stop written, or dropped as empty: later deltas are ignored. */
  closed: boolean;
}

/** Omitted reasoning deltas between two pings (a few a second at a model's pace). */
const PING_EVERY = 32;
const PING = sseNamed('ping', { type: 'ping' });

export function createStreamEncoder(ctx: ResponseContext): StreamEncoder {
  return new MessagesStreamEncoder(ctx);
}

class MessagesStreamEncoder implements StreamEncoder {
  private started = false;
  private ended = false;
  /** The refusal's text so far, for stop_details; undefined until a refusal delta comes. */
  private refusal: string | undefined;
  private usage: Partial<Usage> = {};
  private nextClientIndex = 0;
  private toolCount = 0;
  private searches = 0;
  private readonly blocks = new Map<number, Block>();
  private current: number | undefined;
  private readonly waiting: number[] = [];
  private out = '';
  private omittedDeltas = 0;

  /** Fresh ids for calls that reuse one of the conversation's (call-id-reuse.ts). */
  private readonly callId: (id: string) => string;

  constructor(private readonly ctx: ResponseContext) {
    this.callId = answerCallIds(ctx.callIdTaken);
  }

  encode(event: HubEvent): string {
    if (this.ended) return '';
    this.out = '';
    switch (event.type) {
      case 'start':
        this.onStart(event.id, event.usage);
        break;
      case 'usage':
        this.usage = mergeUsage(this.usage, event.usage);
        break;
      case 'block_start':
        this.onBlockStart(event.index, event.block);
        break;
      case 'refusal_delta':
        // the refusal's words explain it in stop_details (only refusals pay for this)
        this.refusal = this.refusal === undefined ? event.text : this.refusal + event.text;
        this.onDelta(event.index, event.text, 'text', { type: 'refusal' });
        break;
      case 'text_delta':
        this.onDelta(event.index, event.text, 'text', { type: 'text' });
        break;
      case 'reasoning_delta':
        this.onDelta(event.index, event.text, 'reasoning', { type: 'reasoning' });
        break;
      case 'arguments_delta':
        // Without its block_start a call has no id or name: nothing valid can be written.
        this.onDelta(event.index, event.json, 'function_call', undefined);
        break;
      case 'reasoning_origin':
        this.onOrigin(event.index, event.origin);
        break;
      case 'block_stop':
        this.onBlockStop(event.index);
        break;
      case 'finish':
        this.onFinish(event.stopReason, event.stopSequence, event.usage);
        break;
      case 'error':
        this.onError(event.error);
        break;
    }
    return this.out;
  }

  // -- message level ----------------------------------------------------------------------------

  private onStart(id: string | undefined, usage: Partial<Usage> | undefined): void {
    if (this.started) {
      this.usage = mergeUsage(this.usage, usage);
      return;
    }
    this.usage = mergeUsage(this.usage, usage);
    this.writeMessageStart(id);
  }

  private ensureStarted(): void {
    if (!this.started) this.writeMessageStart(undefined);
  }

  private writeMessageStart(id: string | undefined): void {
    this.started = true;
    const message: Message = {
      id: clientMessageId(id, this.ctx),
      type: 'message',
      role: 'assistant',
      model: this.ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      // Input counts when the upstream told us at start; otherwise 0 here and the real values in message_delta.
      usage: messagesUsage({ ...this.usage, outputTokens: this.usage.outputTokens ?? 0 }),
    };
    const ev: RawMessageStartEvent = { type: 'message_start', message };
    this.out += sseNamed('message_start', ev);
  }

  private onFinish(stopReason: Parameters<typeof messagesStopReason>[0], stopSequence: string | undefined, usage: Partial<Usage> | undefined): void {
    this.ensureStarted();
    this.usage = mergeUsage(this.usage, usage);
    // Everything still open or waiting is written out, in order, before the message ends.
    if (this.current !== undefined) this.closeBlock(this.current);
    while (this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.activate(next);
      this.closeBlock(next);
    }
    const u = this.usage;
    const fields = anthropicUsage(u);
    const inputKnown = u.inputTokens !== undefined;
    const deltaUsage: MessageDeltaUsage = {
      input_tokens: inputKnown ? fields.input_tokens : null,
      cache_creation_input_tokens: inputKnown || u.cacheWriteTokens !== undefined ? fields.cache_creation_input_tokens : null,
      cache_read_input_tokens: inputKnown || u.cacheReadTokens !== undefined ? fields.cache_read_input_tokens : null,
      output_tokens: fields.output_tokens,
      output_tokens_details: fields.output_tokens_details,
      server_tool_use: serverToolUsage(this.searches),
    };
    const ev: RawMessageDeltaEvent & { context_management?: object } = {
      type: 'message_delta',
      delta: { stop_reason: messagesStopReason(stopReason), stop_sequence: stopSequence ?? null, stop_details: stopDetails(stopReason, this.refusal), container: null },
      usage: deltaUsage,
    };
    // the beta field Anthropic reports applied context edits in, on the delta as on a whole message
    if (this.ctx.contextEdits) ev.context_management = contextManagementOf(this.ctx.contextEdits);
    this.out += sseNamed('message_delta', ev);
    this.out += sseNamed('message_stop', { type: 'message_stop' });
    this.ended = true;
  }

  private onError(error: HubError): void {
    this.out += sseNamed('error', anthropicErrorBody(error));
    this.ended = true;
  }

  // -- blocks -----------------------------------------------------------------------------------

  private onBlockStart(index: number, start: BlockStart): void {
    if (this.blocks.has(index)) return;
    this.ensureStarted();
    const block: Block = { start, pending: '', stopped: false, closed: false };
    if (start.type === 'reasoning' && start.origin) block.origin = start.origin;
    this.blocks.set(index, block);
    if (this.current === undefined) this.activate(index);
    else this.waiting.push(index);
  }

  /**
   * `kind`: the block kind this delta belongs to; a delta aimed at a block of another kind is
   * dropped, so reasoning can never land in a text block or the reverse. `implicit`: the block
   * to assume when a delta arrives for a block never started.
   */
  private onDelta(index: number, text: string, kind: 'text' | 'reasoning' | 'function_call', implicit: BlockStart | undefined): void {
    if (!this.blocks.has(index)) {
      if (!implicit) return;
      this.onBlockStart(index, implicit);
    }
    const block = this.blocks.get(index)!;
    const blockKind = block.start.type === 'refusal' ? 'text' : block.start.type;
    if (blockKind !== kind || block.closed || text === '' || block.redacted) return;
    if (kind === 'reasoning' && this.ctx.hideThinking) {
      this.pingWhileSilent();
      return;
    }
    if (kind === 'reasoning' && this.ctx.omitThinking) {
      this.keepOmitted(index, block, text);
      return;
    }
    if (index !== this.current || block.clientIndex === undefined) {
      block.pending += text;
      if (index === this.current) this.openIfReady(block);
      return;
    }
    this.writeDelta(block, text);
  }

  /**
   * Reasoning the client asked not to see: kept for the signature, the block opened (empty) so the
   * client learns thinking is under way, and a `ping` every PING_EVERY deltas so a long silent
   * reasoning still moves bytes, as Anthropic's own pings do.
   */
  private keepOmitted(index: number, block: Block, text: string): void {
    block.omitted = (block.omitted ?? '') + text;
    if (index === this.current) this.openIfReady(block);
    this.pingWhileSilent();
  }

  /** A reasoning delta the client does not see (omitted or hidden): a `ping` every PING_EVERY of them. */
  private pingWhileSilent(): void {
    this.omittedDeltas++;
    if (this.omittedDeltas % PING_EVERY === 0) this.out += PING;
  }

  private onOrigin(index: number, origin: ReasoningOrigin): void {
    const block = this.blocks.get(index);
    if (!block || block.closed || block.start.type !== 'reasoning') return;
    block.origin = origin;
    if (index === this.current) this.openIfReady(block);
  }

  private onBlockStop(index: number): void {
    const block = this.blocks.get(index);
    if (!block || block.stopped) return;
    block.stopped = true;
    if (index !== this.current) return; // closed when its turn comes
    this.closeBlock(index);
    // Blocks that waited their turn go out now; those already stopped close at once.
    while (this.current === undefined && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.activate(next);
      if (this.blocks.get(next)!.stopped) this.closeBlock(next);
    }
  }

  private activate(index: number): void {
    this.current = index;
    this.openIfReady(this.blocks.get(index)!);
  }

  /** Open the current block once it has something worth showing; flush what it buffered. */
  private openIfReady(block: Block): void {
    if (block.clientIndex !== undefined || block.closed) return;
    const { start } = block;
    const origin = block.origin;
    const signed = origin !== undefined && origin.kind !== 'unsigned';
    const ready = start.type === 'function_call' || block.pending !== '' || (start.type === 'reasoning' && (signed || block.omitted !== undefined));
    if (start.type === 'web_search') {
      this.writeWebSearch(block, start.search);
      return;
    }
    // thinking turned off: a reasoning block never opens, its text and signature go nowhere
    if (!ready || (start.type === 'reasoning' && this.ctx.hideThinking)) return;
    const clientIndex = this.nextClientIndex++;
    block.clientIndex = clientIndex;
    let contentBlock: RawContentBlockStartEvent['content_block'];
    switch (start.type) {
      case 'text':
      case 'refusal':
        // no `citations` key, as Anthropic starts a text block and as the whole answer has it
        // (response-encode.ts); the SDK keeps this start as the final block
        contentBlock = { type: 'text', text: '' } as RawContentBlockStartEvent['content_block'];
        break;
      case 'reasoning':
        if (origin?.kind === 'anthropic_redacted' && block.pending === '') {
          block.redacted = true;
          contentBlock = { type: 'redacted_thinking', data: origin.data };
        } else contentBlock = { type: 'thinking', thinking: '', signature: '' };
        break;
      case 'function_call':
        contentBlock = {
          type: 'tool_use',
          id: start.callId ? toolUseId(this.callId(start.callId)) : syntheticToolUseId(this.ctx, this.toolCount),
          name: start.name,
          input: {},
          caller: { type: 'direct' },
        };
        this.toolCount++;
        break;
    }
    const ev: RawContentBlockStartEvent = { type: 'content_block_start', index: clientIndex, content_block: contentBlock };
    this.out += sseNamed('content_block_start', ev);
    const pending = block.pending;
    block.pending = '';
    if (pending !== '' && !block.redacted) this.writeDelta(block, pending);
  }

  /**
   * The most frequent event, written as sseNamed would write it but without building the event
   * object and serialising it whole (~0.2 µs less each); only the text goes through JSON.stringify.
   */
  private writeDelta(block: Block, text: string): void {
    let head: string;
    switch (block.start.type) {
      case 'text':
      case 'refusal':
        head = '"delta":{"type":"text_delta","text":';
        break;
      case 'reasoning':
        head = '"delta":{"type":"thinking_delta","thinking":';
        break;
      case 'function_call':
        head = '"delta":{"type":"input_json_delta","partial_json":';
        break;
      case 'web_search':
        return; // takes no deltas
    }
    this.out += `event: content_block_delta\ndata: {"type":"content_block_delta","index":${block.clientIndex!},${head}${JSON.stringify(text)}}}\n\n`;
  }

  /**
   * A search, whole: its server_tool_use block (the query streamed as input JSON, as Anthropic
   * does and Claude Code reads it) and its web_search_tool_result block, both closed at once.
   */
  private writeWebSearch(block: Block, search: WebSearchItem): void {
    const use = this.nextClientIndex++;
    const result = this.nextClientIndex++;
    block.clientIndex = result;
    block.closed = true;
    this.searches++;
    const useStart: RawContentBlockStartEvent = { type: 'content_block_start', index: use, content_block: { ...serverToolUseBlock(search), input: {} } };
    const input: RawContentBlockDeltaEvent = { type: 'content_block_delta', index: use, delta: { type: 'input_json_delta', partial_json: JSON.stringify(queryInput(search)) } };
    const resultStart: RawContentBlockStartEvent = { type: 'content_block_start', index: result, content_block: webSearchResultBlock(search) };
    this.out +=
      sseNamed('content_block_start', useStart) +
      sseNamed('content_block_delta', input) +
      sseNamed('content_block_stop', { type: 'content_block_stop', index: use }) +
      sseNamed('content_block_start', resultStart) +
      sseNamed('content_block_stop', { type: 'content_block_stop', index: result });
  }

  /** Write the end of a block (opening it first if it has content), and make it no longer current. */
  private closeBlock(index: number): void {
    const block = this.blocks.get(index)!;
    if (this.current === index) this.current = undefined;
    if (block.closed) return;
    // Last chance to open: a thinking block whose signature came right before its end.
    this.openIfReady(block);
    block.closed = true;
    block.pending = '';
    if (block.clientIndex === undefined) return; // empty text / unsigned empty reasoning: nothing to show
    if (block.start.type === 'reasoning' && !block.redacted) {
      const origin = block.origin ?? { kind: 'unsigned' };
      const signature = this.ctx.omitThinking ? omittedSignatureFor(origin, block.omitted ?? '') : signatureFor(origin);
      const ev: RawContentBlockDeltaEvent = { type: 'content_block_delta', index: block.clientIndex, delta: { type: 'signature_delta', signature } };
      this.out += sseNamed('content_block_delta', ev);
    }
    this.out += sseNamed('content_block_stop', { type: 'content_block_stop', index: block.clientIndex });
  }
}
