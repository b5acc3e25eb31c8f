/**
 * Responses SSE from an OpenAI (or open-weight Responses) upstream → hub events, one event at a
 * time. Items become hub blocks: a reasoning item one reasoning block (summary parts joined by a
 * blank line), each message content part one text or refusal block, a function call one block,
 * a finished web search one whole block (at its output_item.done, when its query and pages are
 * known). `.done` events fill in text a server sent only there. Other hosted-tool and unknown
 * events are ignored.
 * Memory stays flat: per open block only counters are kept, never the text.
 */
import type { StreamDecoder } from '../codec.js';
import type { BlockStart, HubEvent, TokenLogprob } from '../hub.js';
import type { SseEvent } from '../sse.js';
import { isObject, str, namespaceField, type JsonObject } from './json.js';
import { PART_SEPARATOR, originOf, textOf } from './reasoning.js';
import { argumentsOf } from './response-decode.js';
import { httpStatusForErrorCode, stopReasonFrom, type OutputFacts } from './status.js';
import { logprobsFromWire } from './logprobs.js';
import { usageFromWire } from './usage.js';
import { urlCitationsOf, webSearchOf } from './web-search.js';
import { codeForStatus } from '../upstream-codes.js';

interface Block {
  index: number;
  kind: BlockStart['type'];
  open: boolean;
  /** Characters emitted in total / within the current part (to reconcile `.done` texts). */
  emitted: number;
  partEmitted: number;
  /** Current reasoning part ('s0' summary 0, 'c1' raw content 1); a change inserts a separator. */
  part?: string;
}

export function createStreamDecoder(): StreamDecoder {
  return new ResponsesStreamDecoder();
}

class ResponsesStreamDecoder implements StreamDecoder {
  private started = false;
  private finished = false;
  private nextIndex = 0;
  private readonly blocks = new Map<string, Block>();
  /** output_index → item type, as announced by output_item.added. */
  private readonly itemTypes = new Map<number, string>();
  private readonly facts: OutputFacts = { hasFunctionCall: false, hasText: false, hasRefusal: false };

  push(event: SseEvent): HubEvent[] {
    if (this.finished) return [];
    const raw = event.data.trim();
    if (raw === '' || raw === '[DONE]') return [];
    let data: unknown;
    try {
      data = JSON.parse(raw);
    } catch {
      return this.fail(502, 'The upstream sent a malformed stream event (not JSON).');
    }
    if (!isObject(data)) return this.fail(502, 'The upstream sent a malformed stream event (not an object).');
    const out: HubEvent[] = [];
    this.handle(str(data.type) ?? event.event ?? '', data, out);
    return out;
  }

  end(): HubEvent[] {
    if (this.finished) return [];
    return this.fail(502, 'The upstream stream ended before response.completed.', 'upstream_stream_incomplete');
  }

  private handle(type: string, d: JsonObject, out: HubEvent[]): void {
    const oi = typeof d.output_index === 'number' ? d.output_index : -1;
    const ci = typeof d.content_index === 'number' ? d.content_index : 0;
    switch (type) {
      case 'response.created':
      case 'response.queued':
      case 'response.in_progress':
        this.ensureStart(out, isObject(d.response) ? d.response : undefined);
        return;
      case 'response.output_item.added':
        this.ensureStart(out);
        if (isObject(d.item)) this.itemAdded(oi, d.item, out);
        return;
      case 'response.content_part.added': {
        const part = isObject(d.part) ? d.part : {};
        if (this.itemTypes.get(oi) === 'message' && (part.type === 'output_text' || part.type === 'refusal')) {
          const block = this.partBlock(oi, ci, part.type === 'refusal' ? 'refusal' : 'text', out);
          this.emitText(block, str(part.type === 'refusal' ? part.refusal : part.text) ?? '', out);
        }
        return;
      }
      case 'response.output_text.delta':
        this.emitText(this.partBlock(oi, ci, 'text', out), str(d.delta) ?? '', out, logprobsFromWire(d.logprobs));
        return;
      case 'response.refusal.delta':
        this.emitText(this.partBlock(oi, ci, 'refusal', out), str(d.delta) ?? '', out);
        return;
      case 'response.output_text.done':
        this.reconcile(this.partBlock(oi, ci, 'text', out), str(d.text), out, false, d.logprobs);
        return;
      case 'response.output_text.annotation.added': {
        // the text may not be whole yet: its offsets are taken as they are
        const block = this.partBlock(oi, ci, 'text', out);
        if (block.open) for (const citation of urlCitationsOf([d.annotation], Number.MAX_SAFE_INTEGER)) out.push({ type: 'citation', index: block.index, citation });
        return;
      }
      case 'response.refusal.done':
        this.reconcile(this.partBlock(oi, ci, 'refusal', out), str(d.refusal), out);
        return;
      case 'response.content_part.done': {
        const block = this.blocks.get(`${oi}:${ci}`);
        if (block) {
          const part = isObject(d.part) ? d.part : {};
          this.reconcile(block, str(block.kind === 'refusal' ? part.refusal : part.text), out, false, part.logprobs);
          this.stop(block, out);
        }
        return;
      }
      case 'response.reasoning_summary_part.added':
        this.reasoningPart(oi, `s${String(d.summary_index ?? 0)}`, out);
        return;
      case 'response.reasoning_summary_text.delta':
        this.emitText(this.reasoningPart(oi, `s${String(d.summary_index ?? 0)}`, out), str(d.delta) ?? '', out);
        return;
      case 'response.reasoning_summary_text.done':
        this.reconcile(this.reasoningPart(oi, `s${String(d.summary_index ?? 0)}`, out), str(d.text), out, true);
        return;
      case 'response.reasoning_text.delta':
        this.emitText(this.reasoningPart(oi, `c${ci}`, out), str(d.delta) ?? '', out);
        return;
      case 'response.reasoning_text.done':
        this.reconcile(this.reasoningPart(oi, `c${ci}`, out), str(d.text), out, true);
        return;
      case 'response.function_call_arguments.delta': {
        const block = this.blocks.get(String(oi));
        if (block?.kind === 'function_call') this.emitText(block, str(d.delta) ?? '', out);
        return;
      }
      case 'response.function_call_arguments.done': {
        const block = this.blocks.get(String(oi));
        if (block?.kind === 'function_call') this.reconcile(block, str(d.arguments), out);
        return;
      }
      case 'response.output_item.done':
        if (isObject(d.item)) this.itemDone(oi, d.item, out);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.complete(isObject(d.response) ? d.response : {}, out);
        return;
      case 'response.failed': {
        const response = isObject(d.response) ? d.response : {};
        const error = isObject(response.error) ? response.error : {};
        out.push(...this.upstreamError(str(error.code), str(error.message) ?? 'The upstream response failed.'));
        return;
      }
      case 'error': {
        // The documented shape is flat ({code,message}); some servers nest it under `error`.
        const error = isObject(d.error) ? d.error : d;
        out.push(...this.upstreamError(str(error.code) ?? str(error.type), str(error.message) ?? 'The upstream reported an error.'));
        return;
      }
      default:
        return;
    }
  }

  private ensureStart(out: HubEvent[], response?: JsonObject): void {
    if (this.started) return;
    this.started = true;
    const start: HubEvent & { type: 'start' } = { type: 'start' };
    const id = str(response?.id);
    const model = str(response?.model);
    const tier = str(response?.service_tier);
    if (id) start.id = id;
    if (model) start.model = model;
    if (tier) start.serviceTier = tier;
    out.push(start);
  }

  private itemAdded(oi: number, item: JsonObject, out: HubEvent[]): void {
    const type = str(item.type) ?? '';
    this.itemTypes.set(oi, type);
    if (type === 'reasoning') {
      this.reasoningBlock(oi, out);
    } else if (type === 'function_call') {
      const block = this.functionBlock(oi, item, out);
      this.emitText(block, argumentsOf(item.arguments), out);
    }
  }

  private itemDone(oi: number, item: JsonObject, out: HubEvent[]): void {
    const type = str(item.type) ?? this.itemTypes.get(oi);
    if (type === 'reasoning') {
      const block = this.reasoningBlock(oi, out);
      if (!block.open) return;
      if (block.emitted === 0) this.emitText(block, textOf(item), out);
      out.push({ type: 'reasoning_origin', index: block.index, origin: originOf(str(item.id), item.encrypted_content) });
      this.stop(block, out);
    } else if (type === 'function_call') {
      const block = this.functionBlock(oi, item, out);
      this.reconcile(block, argumentsOf(item.arguments), out);
      this.stop(block, out);
    } else if (type === 'web_search_call') {
      const search = webSearchOf(item);
      if (!search || this.blocks.has(String(oi))) return;
      const block = this.open(String(oi), { type: 'web_search', search }, out);
      this.stop(block, out);
    } else if (type === 'message') {
      const content = Array.isArray(item.content) ? item.content : [];
      content.forEach((part, ci) => {
        if (!isObject(part) || (part.type !== 'output_text' && part.type !== 'refusal')) return;
        const refusal = part.type === 'refusal';
        const block = this.partBlock(oi, ci, refusal ? 'refusal' : 'text', out);
        this.reconcile(block, str(refusal ? part.refusal : part.text), out, false, part.logprobs);
      });
      for (const [key, block] of this.blocks) if (key.startsWith(`${oi}:`)) this.stop(block, out);
    }
  }

  private complete(response: JsonObject, out: HubEvent[]): void {
    this.ensureStart(out, response);
    for (const block of this.blocks.values()) this.stop(block, out);
    if (Array.isArray(response.output) && response.output.some((i) => isObject(i) && i.type === 'function_call')) {
      this.facts.hasFunctionCall = true;
    }
    const incomplete = isObject(response.incomplete_details) ? str(response.incomplete_details.reason) : undefined;
    const stopReason = stopReasonFrom(str(response.status) ?? 'completed', incomplete, this.facts);
    const finish: HubEvent & { type: 'finish' } = { type: 'finish', stopReason };
    const usage = usageFromWire(response.usage);
    if (usage) finish.usage = usage;
    const tier = str(response.service_tier);
    if (tier) finish.serviceTier = tier;
    out.push(finish);
    this.finished = true;
  }

  private open(key: string, block: BlockStart, out: HubEvent[]): Block {
    const state: Block = { index: this.nextIndex++, kind: block.type, open: true, emitted: 0, partEmitted: 0 };
    this.blocks.set(key, state);
    out.push({ type: 'block_start', index: state.index, block });
    return state;
  }

  private reasoningBlock(oi: number, out: HubEvent[]): Block {
    return this.blocks.get(String(oi)) ?? this.open(String(oi), { type: 'reasoning' }, out);
  }

  /** The reasoning block of an item, switched to `part`: a new part after text starts with a blank line. */
  private reasoningPart(oi: number, part: string, out: HubEvent[]): Block {
    const block = this.reasoningBlock(oi, out);
    if (block.part !== part) {
      if (block.part !== undefined && block.emitted > 0 && block.open) {
        out.push({ type: 'reasoning_delta', index: block.index, text: PART_SEPARATOR });
        block.emitted += PART_SEPARATOR.length;
      }
      block.part = part;
      block.partEmitted = 0;
    }
    return block;
  }

  private functionBlock(oi: number, item: JsonObject, out: HubEvent[]): Block {
    const existing = this.blocks.get(String(oi));
    if (existing) return existing;
    this.facts.hasFunctionCall = true;
    const callId = str(item.call_id) ?? str(item.id) ?? `call_${oi}`;
    return this.open(String(oi), { type: 'function_call', callId, name: str(item.name) ?? '', ...namespaceField(item.namespace) }, out);
  }

  private partBlock(oi: number, ci: number, kind: 'text' | 'refusal', out: HubEvent[]): Block {
    const key = `${oi}:${ci}`;
    return this.blocks.get(key) ?? this.open(key, { type: kind }, out);
  }

  private emitText(block: Block, text: string, out: HubEvent[], logprobs?: TokenLogprob[]): void {
    if (text.length === 0 || !block.open) return;
    const index = block.index;
    switch (block.kind) {
      case 'text':
        this.facts.hasText = true;
        out.push(logprobs ? { type: 'text_delta', index, text, logprobs } : { type: 'text_delta', index, text });
        break;
      case 'refusal':
        this.facts.hasRefusal = true;
        out.push({ type: 'refusal_delta', index, text });
        break;
      case 'reasoning':
        out.push({ type: 'reasoning_delta', index, text });
        break;
      case 'function_call':
        out.push({ type: 'arguments_delta', index, json: text });
        break;
    }
    block.emitted += text.length;
    block.partEmitted += text.length;
  }

  /**
   * A `.done` text longer than what the deltas carried: emit the missing tail — with the part's
   * logprobs when it is the whole text (a server that sent no deltas).
   */
  private reconcile(block: Block, full: string | undefined, out: HubEvent[], perPart = false, logprobs?: unknown): void {
    if (full === undefined) return;
    const sent = perPart ? block.partEmitted : block.emitted;
    if (full.length > sent) this.emitText(block, full.slice(sent), out, sent === 0 ? logprobsFromWire(logprobs) : undefined);
  }

  private stop(block: Block, out: HubEvent[]): void {
    if (!block.open) return;
    block.open = false;
    out.push({ type: 'block_stop', index: block.index });
  }

  private upstreamError(code: string | undefined, message: string): HubEvent[] {
    const status = httpStatusForErrorCode(code);
    return this.fail(status, code ? `${message} (${code})` : message, codeForStatus(status));
  }

  private fail(status: number, message: string, code = 'upstream_error'): HubEvent[] {
    this.finished = true;
    return [{ type: 'error', error: { status, code, message } }];
  }
}
