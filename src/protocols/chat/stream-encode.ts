/**
 * Hub events → `data:` lines for a Chat client, in the order OpenAI sends them (PROTOCOLS.md §2.3):
 * a first chunk with the role, content/reasoning/tool-call deltas, a final chunk `delta:{}` with
 * the finish_reason, the usage chunk (`choices:[]`) when the client asked for it, `[DONE]`.
 *
 * Tool calls: the hub index maps to a chat tool index that counts tool blocks only; the first
 * fragment carries id, type, name and `arguments:""`, later ones only the argument pieces.
 *
 * Reasoning: every piece goes out in `reasoning_content` and `reasoning`, and (unless the origin
 * is known to carry its own text or none) as a `reasoning.text` detail of the block's index; the
 * proof of origin (signature, encrypted data) follows as its own detail entry when the block
 * stops, OpenRouter style. Anthropic origins (and blocks whose origin is not known yet) also get
 * LiteLLM `thinking_blocks` pieces, the signature in a last block entry.
 *
 * Errors after the stream started: one `data: {"error":{…}}` line and then nothing, as OpenAI does
 * (no [DONE]); the official SDK throws an APIError with that message.
 */
import type { HubError, HubEvent, ReasoningOrigin, Usage } from '../hub.js';
import type { ResponseContext, StreamEncoder } from '../codec.js';
import { openaiErrorBody } from '../errors.js';
import { SSE_DONE, sseData } from '../sse.js';
import type { Json } from './guards.js';
import { chatCompletionId } from './ids.js';
import { BLOCK_SEPARATOR, detailFormat, originDetails, originThinkingBlock } from './reasoning.js';
import { chatFinishReason } from './finish-reason.js';
import { usageToChat } from './usage.js';
import { clientToolCall } from './response-encode.js';

interface ReasoningBlock {
  detailIndex: number;
  origin?: ReasoningOrigin;
  emittedText: boolean;
  /** The block stopped; a proof arriving now goes out at once. */
  stopped: boolean;
}

/** Origins whose final entry does not repeat the text, so the pieces must go out as details. */
function piecesAsDetails(origin: ReasoningOrigin | undefined): boolean {
  return origin === undefined || origin.kind === 'anthropic' || origin.kind === 'openai';
}

export class ChatStreamEncoder implements StreamEncoder {
  /** `{"id":…,"object":…,"created":…,"model":…` — the start of every chunk object. */
  private envelope = '';
  private head = '';
  private started = false;
  private ended = false;
  private readonly tail: string;
  private readonly created: number;
  private readonly toolIndex = new Map<number, number>();
  private readonly reasoning = new Map<number, ReasoningBlock>();
  private nextDetail = 0;
  private reasoningSoFar = false;
  private usage: Partial<Usage> = {};

  constructor(private readonly ctx: ResponseContext) {
    this.created = ctx.created ?? Math.floor(Date.now() / 1000);
    this.tail = `,"finish_reason":null}]${ctx.includeUsage ? ',"usage":null' : ''}}\n\n`;
  }

  encode(ev: HubEvent): string {
    if (this.ended) return '';
    if (ev.type === 'start') {
      if (ev.usage) Object.assign(this.usage, ev.usage);
      return this.begin(ev.id);
    }
    if (ev.type === 'error') return this.error(ev.error);
    const first = this.started ? '' : this.begin(undefined);
    return first + this.body(ev);
  }

  private body(ev: Exclude<HubEvent, { type: 'start' | 'error' }>): string {
    switch (ev.type) {
      case 'block_start':
        return this.blockStart(ev.index, ev.block);
      case 'text_delta':
        return ev.text ? this.chunk({ content: ev.text }) : '';
      case 'refusal_delta':
        return ev.text ? this.chunk({ refusal: ev.text }) : '';
      case 'reasoning_delta':
        return this.reasoningDelta(ev.index, ev.text);
      case 'reasoning_origin': {
        const r = this.reasoningBlock(ev.index);
        r.origin = ev.origin;
        return r.stopped ? this.proof(r) : '';
      }
      case 'arguments_delta': {
        const index = this.toolIndex.get(ev.index);
        if (index === undefined || !ev.json) return '';
        return this.chunk({ tool_calls: [{ index, function: { arguments: ev.json } }] });
      }
      case 'block_stop':
        return this.blockStop(ev.index);
      case 'usage':
        Object.assign(this.usage, ev.usage);
        return '';
      case 'finish':
        if (ev.usage) Object.assign(this.usage, ev.usage);
        return this.finish(chatFinishReason(ev.stopReason, this.toolIndex.size > 0));
    }
  }

  private begin(upstreamId: string | undefined): string {
    if (this.started) return '';
    this.started = true;
    const id = chatCompletionId(upstreamId, this.ctx.idSuffix);
    this.envelope = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${this.created},"model":${JSON.stringify(this.ctx.model)}`;
    this.head = `data: ${this.envelope},"choices":[{"index":0,"delta":`;
    return this.chunk({ role: 'assistant', content: '' });
  }

  private chunk(delta: Json): string {
    return this.head + JSON.stringify(delta) + this.tail;
  }

  private blockStart(index: number, block: Extract<HubEvent, { type: 'block_start' }>['block']): string {
    if (block.type === 'reasoning') {
      const r = this.reasoningBlock(index);
      if (block.origin) r.origin = block.origin;
      return '';
    }
    if (block.type !== 'function_call') return '';
    const toolIndex = this.toolIndex.size;
    this.toolIndex.set(index, toolIndex);
    const call = clientToolCall({ type: 'function_call', callId: block.callId, name: block.name, arguments: '' });
    if (block.thoughtSignature) call.extra_content = { google: { thought_signature: block.thoughtSignature } };
    return this.chunk({ tool_calls: [{ index: toolIndex, ...call }] });
  }

  private reasoningBlock(index: number): ReasoningBlock {
    let r = this.reasoning.get(index);
    if (!r) {
      r = { detailIndex: this.nextDetail++, emittedText: false, stopped: false };
      this.reasoning.set(index, r);
    }
    return r;
  }

  private reasoningDelta(index: number, text: string): string {
    if (!text) return '';
    const r = this.reasoningBlock(index);
    const flat = !r.emittedText && this.reasoningSoFar ? BLOCK_SEPARATOR + text : text;
    r.emittedText = true;
    this.reasoningSoFar = true;
    const delta: Json = { reasoning_content: flat, reasoning: flat };
    if (piecesAsDetails(r.origin)) {
      delta.reasoning_details = [{ type: 'reasoning.text', text, format: detailFormat(r.origin?.kind), index: r.detailIndex }];
    }
    // Optimistic while the origin is unknown (a Messages upstream names it only at the block's end).
    if (r.origin === undefined || r.origin.kind === 'anthropic') delta.thinking_blocks = [{ type: 'thinking', thinking: text, signature: '' }];
    return this.chunk(delta);
  }

  /** A reasoning block ends: its proof of origin goes out as its own entry. */
  private blockStop(index: number): string {
    const r = this.reasoning.get(index);
    return r ? this.blockStopOf(r) : '';
  }

  private blockStopOf(r: ReasoningBlock): string {
    if (r.stopped) return '';
    r.stopped = true;
    return this.proof(r);
  }

  private proof(r: ReasoningBlock): string {
    if (!r.origin) return '';
    const details = originDetails(r.origin, '', r.detailIndex);
    if (details.length === 0) return '';
    const delta: Json = { reasoning_details: details };
    const block = originThinkingBlock(r.origin, '');
    if (block) delta.thinking_blocks = [block];
    return this.chunk(delta);
  }

  private finish(reason: string): string {
    this.ended = true;
    // Proofs of blocks the upstream never stopped must still reach the client.
    let out = '';
    for (const r of this.reasoning.values()) if (!r.stopped) out += this.blockStopOf(r);
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
