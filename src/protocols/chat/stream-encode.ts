/**
 * Hub events → `data:` lines for a Chat client, in the order OpenAI sends them (PROTOCOLS.md §2.3):
 * a first chunk with the role, content/reasoning/tool-call deltas, a final chunk `delta:{}` with
 * the finish_reason, the usage chunk (`choices:[]`) when the client asked for it, `[DONE]`.
 *
 * Tool calls: the hub index maps to a chat tool index that counts tool blocks only; the first
 * fragment carries id, type, name and `arguments:""`, later ones only the argument pieces.
 *
 * Reasoning: every piece goes out in `reasoning_content` and `reasoning` as it arrives. The proof
 * of origin goes out once per block, whole — text and signature (or encrypted data) in one
 * `reasoning_details` entry and one LiteLLM `thinking_blocks` entry — in a single chunk for the run
 * of reasoning blocks, written when the run ends (the next text, tool call or the finish). That
 * chunk is the last `reasoning_details` delta of the run, so every way clients accumulate works:
 * concatenating entries, merging them by index, or keeping only the latest delta's fields
 * (openai-node's stream helper does `Object.assign`, which kept only a text-less signature entry
 * when pieces and proof went out separately — and Anthropic rejects a signature whose text changed).
 *
 * Logprobs ride on the text chunk they belong to (`choices[0].logprobs`), as OpenAI streams them.
 * `service_tier` is on every chunk once the upstream said it; the tier it reports at the end (the
 * one it served in) is on the finish and usage chunks.
 *
 * Errors after the stream started: one `data: {"error":{…}}` line and then nothing, as OpenAI does
 * (no [DONE]); the official SDK throws an APIError with that message.
 */
import type { HubError, HubEvent, ReasoningOrigin, TokenLogprob, UrlCitation, Usage } from '../hub.js';
import type { ResponseContext, StreamEncoder } from '../codec.js';
import { openaiErrorBody } from '../errors.js';
import { SSE_DONE, sseData } from '../sse.js';
import type { Json } from './guards.js';
import { chatCompletionId } from './ids.js';
import { BLOCK_SEPARATOR, originDetails, originThinkingBlock } from './reasoning.js';
import { chatFinishReason, legacyFinishReason, type ChatFinishReason } from './finish-reason.js';
import { chatLogprobs } from './logprobs.js';
import { usageToChat } from './usage.js';
import { clientToolCall, urlAnnotation } from './response-encode.js';

interface ReasoningBlock {
  detailIndex: number;
  origin?: ReasoningOrigin;
  /** The block's text so far: its proof entry repeats it whole (bounded by one reasoning block). */
  text: string;
  /** Some of its text went out in reasoning_content (the next block's text starts with a separator). */
  shown: boolean;
  /** Its proof went out (or was due while the origin was unknown): a late origin goes out at once. */
  flushed: boolean;
}

export class ChatStreamEncoder implements StreamEncoder {
  /** `{"id":…,"object":…,"created":…,"model":…` — the start of every chunk object. */
  private envelope = '';
  private head = '';
  private started = false;
  private ended = false;
  private id = '';
  private serviceTier: string | undefined;
  private readonly tail: string;
  private readonly created: number;
  private readonly toolIndex = new Map<number, number>();
  /** Function calls (hub index) with no argument text yet: one that stops so gets `{}` (below). */
  private readonly noArguments = new Set<number>();
  private readonly reasoning = new Map<number, ReasoningBlock>();
  /** Reasoning blocks of the current run whose proof is not written yet, in order. */
  private run: ReasoningBlock[] = [];
  private nextDetail = 0;
  private reasoningSoFar = false;
  private usage: Partial<Usage> = {};
  /** Length of the content written so far (UTF-16), where a cited stretch's offsets count from. */
  private written = 0;
  /** The latest text block: its hub index and where its content starts. */
  private textIndex = -1;
  private textStart = 0;
  /** Citations of the latest text block, written as an annotations chunk when it stops. */
  private cited: UrlCitation[] | undefined;

  /** The client declared `functions`: its one call goes out as `function_call` (ResponseContext.legacyFunctions). */
  private readonly legacy: boolean;

  constructor(private readonly ctx: ResponseContext) {
    this.legacy = ctx.legacyFunctions === true;
    this.created = ctx.created ?? Math.floor(Date.now() / 1000);
    this.tail = `,"finish_reason":null}]${ctx.includeUsage ? ',"usage":null' : ''}}\n\n`;
  }

  encode(ev: HubEvent): string {
    if (this.ended) return '';
    if (ev.type === 'start') {
      if (ev.usage) Object.assign(this.usage, ev.usage);
      if (ev.serviceTier) this.serviceTier = ev.serviceTier;
      return this.begin(ev.id);
    }
    if (ev.type === 'error') return this.error(ev.error);
    const first = this.started ? '' : this.begin(undefined);
    return first + this.body(ev);
  }

  private body(ev: Exclude<HubEvent, { type: 'start' | 'error' }>): string {
    switch (ev.type) {
      case 'block_start':
        if (ev.block.type === 'text') this.textAt(ev.index);
        return ev.block.type === 'reasoning' ? this.reasoningStart(ev.index, ev.block.origin) : this.flushRun() + this.blockStart(ev.index, ev.block);
      case 'text_delta':
        if (!ev.text) return '';
        this.written += ev.text.length;
        return this.flushRun() + (ev.logprobs ? this.logprobsChunk(ev.text, ev.logprobs) : this.textChunk('content', ev.text));
      case 'refusal_delta':
        return ev.text ? this.flushRun() + this.textChunk('refusal', ev.text) : '';
      case 'reasoning_delta':
        return this.reasoningDelta(ev.index, ev.text);
      case 'reasoning_origin': {
        const r = this.reasoningBlock(ev.index);
        r.origin = ev.origin;
        // Too late for its run's chunk: the proof goes out on its own.
        return r.flushed ? this.proofChunk([r]) : '';
      }
      case 'citation':
        if (ev.index === this.textIndex) (this.cited ??= []).push(ev.citation);
        return '';
      case 'arguments_delta': {
        const index = this.toolIndex.get(ev.index);
        if (index === undefined || !ev.json) return '';
        this.noArguments.delete(ev.index);
        return this.flushRun() + this.chunk(this.legacy ? { function_call: { arguments: ev.json } } : { tool_calls: [{ index, function: { arguments: ev.json } }] });
      }
      case 'block_stop':
        if (this.noArguments.delete(ev.index)) return this.noArgumentsChunk(ev.index);
        return ev.index === this.textIndex ? this.annotations() : '';
      case 'usage':
        Object.assign(this.usage, ev.usage);
        return '';
      case 'finish':
        if (ev.usage) Object.assign(this.usage, ev.usage);
        if (ev.serviceTier && ev.serviceTier !== this.serviceTier) {
          this.serviceTier = ev.serviceTier;
          this.setEnvelope();
        }
        return this.finish(this.finishReason(chatFinishReason(ev.stopReason, this.toolIndex.size > 0)));
    }
  }

  private textAt(index: number): void {
    this.textIndex = index;
    this.textStart = this.written;
    this.cited = undefined;
  }

  /**
   * The pages the text block that ends cites, over its stretch of the content: a delta of their
   * own, as OpenAI's search models stream them (the SDK's types do not list the field).
   */
  private annotations(): string {
    const cited = this.cited;
    this.cited = undefined;
    if (!cited) return '';
    return this.chunk({ annotations: cited.map((c) => urlAnnotation(c, this.textStart, this.written)) });
  }

  private begin(upstreamId: string | undefined): string {
    if (this.started) return '';
    this.started = true;
    this.id = chatCompletionId(upstreamId, this.ctx.idSuffix);
    this.setEnvelope();
    return this.chunk({ role: 'assistant', content: '' });
  }

  private setEnvelope(): void {
    const tier = this.serviceTier === undefined ? '' : `,"service_tier":${JSON.stringify(this.serviceTier)}`;
    this.envelope = `{"id":${JSON.stringify(this.id)},"object":"chat.completion.chunk","created":${this.created},"model":${JSON.stringify(this.ctx.model)}${tier}`;
    this.head = `data: ${this.envelope},"choices":[{"index":0,"delta":`;
  }

  private chunk(delta: Json): string {
    return this.head + JSON.stringify(delta) + this.tail;
  }

  /** chunk({ [field]: text }) for the most frequent chunk, without the object (~0.1 µs less each). */
  private textChunk(field: 'content' | 'refusal', text: string): string {
    return `${this.head}{"${field}":${JSON.stringify(text)}}${this.tail}`;
  }

  /** A text piece with the logprobs of its tokens beside its delta. */
  private logprobsChunk(text: string, logprobs: readonly TokenLogprob[]): string {
    return `${this.head}{"content":${JSON.stringify(text)}},"logprobs":${JSON.stringify(chatLogprobs(logprobs))}${this.tail}`;
  }

  private reasoningStart(index: number, origin: ReasoningOrigin | undefined): string {
    const r = this.reasoningBlock(index);
    if (origin) r.origin = origin;
    return '';
  }

  /**
   * A call of a tool without parameters: Anthropic streams its input as `{}` and no delta (or an
   * empty one), a Chat server may send `""`. Clients JSON.parse the arguments, so they get `{}`, as
   * a whole answer gives them.
   */
  private noArgumentsChunk(index: number): string {
    const toolIndex = this.toolIndex.get(index);
    if (toolIndex === undefined) return '';
    return this.chunk(this.legacy ? { function_call: { arguments: '{}' } } : { tool_calls: [{ index: toolIndex, function: { arguments: '{}' } }] });
  }

  private finishReason(reason: ChatFinishReason): ChatFinishReason {
    return this.legacy ? legacyFinishReason(reason) : reason;
  }

  private blockStart(index: number, block: Extract<HubEvent, { type: 'block_start' }>['block']): string {
    if (block.type !== 'function_call') return '';
    if (this.legacy) return this.legacyCallStart(index, block.name);
    const toolIndex = this.toolIndex.size;
    this.toolIndex.set(index, toolIndex);
    // a freeform (custom) tool's input may well be empty
    if (block.freeform !== true) this.noArguments.add(index);
    const call = clientToolCall({ type: 'function_call', callId: block.callId, name: block.name, arguments: '' });
    if (block.thoughtSignature) call.extra_content = { google: { thought_signature: block.thoughtSignature } };
    return this.chunk({ tool_calls: [{ index: toolIndex, ...call }] });
  }

  /**
   * A `functions` client's call: `delta.function_call` with the name, then its argument pieces.
   * It has room for one; a further call (the upstream ignored parallel_tool_calls) is left out.
   */
  private legacyCallStart(index: number, name: string): string {
    if (this.toolIndex.size > 0) return '';
    this.toolIndex.set(index, 0);
    this.noArguments.add(index);
    return this.chunk({ function_call: { name, arguments: '' } });
  }

  private reasoningBlock(index: number): ReasoningBlock {
    let r = this.reasoning.get(index);
    if (!r) {
      r = { detailIndex: this.nextDetail++, text: '', shown: false, flushed: false };
      this.reasoning.set(index, r);
      this.run.push(r);
    }
    return r;
  }

  private reasoningDelta(index: number, text: string): string {
    if (!text) return '';
    const r = this.reasoningBlock(index);
    const flat = !r.shown && this.reasoningSoFar ? BLOCK_SEPARATOR + text : text;
    r.shown = true;
    // Text after its proof went out is still shown, but cannot join the proof any more.
    if (!r.flushed) r.text += text;
    this.reasoningSoFar = true;
    return this.chunk({ reasoning_content: flat, reasoning: flat });
  }

  /** The run of reasoning blocks ended: the proofs of all its blocks go out together. */
  private flushRun(): string {
    if (this.run.length === 0) return '';
    const blocks = this.run;
    this.run = [];
    for (const r of blocks) r.flushed = true;
    return this.proofChunk(blocks.filter((r) => r.origin !== undefined));
  }

  private proofChunk(blocks: ReadonlyArray<ReasoningBlock>): string {
    const details: Json[] = [];
    const thinking: Json[] = [];
    for (const r of blocks) {
      if (!r.origin) continue;
      details.push(...originDetails(r.origin, r.text, r.detailIndex));
      const block = originThinkingBlock(r.origin, r.text);
      if (block) thinking.push(block);
    }
    if (details.length === 0) return '';
    const delta: Json = { reasoning_details: details };
    if (thinking.length > 0) delta.thinking_blocks = thinking;
    return this.chunk(delta);
  }

  private finish(reason: string): string {
    // Proofs of the last run (blocks the upstream never stopped included) before the finish chunk.
    let out = this.flushRun();
    this.ended = true;
    out += this.head + `{},"finish_reason":${JSON.stringify(reason)}}]${this.ctx.includeUsage ? ',"usage":null' : ''}}\n\n`;
    if (this.ctx.includeUsage) {
      out += `data: ${this.envelope},"choices":[],"usage":${JSON.stringify(usageToChat(this.usage))}}\n\n`;
    }
    return out + SSE_DONE;
  }

  private error(err: HubError): string {
    this.ended = true;
    return sseData(openaiErrorBody(err));
  }
}
