/**
 * A Messages upstream's event stream → hub events, one SSE event at a time.
 *
 * Upstream block indices are mapped to hub indices in order of appearance; blocks we cannot
 * represent (other server tools' use and results) are skipped with their deltas. A web search is
 * one whole hub block at its web_search_tool_result, with the query its server_tool_use streamed. Usage: input and cache
 * counts from `message_start`, then `message_delta`'s cumulative counters, non-null fields
 * overriding. `finish` is emitted at `message_stop` (the terminal event), so a body cut anywhere
 * before it ends in an error event instead of a truncated answer that looks complete.
 */
import type { StreamDecoder } from '../codec.js';
import type { HubEvent, StopReason } from '../hub.js';
import { stringTokenValue } from '../json-string-token.js';
import type { SseEvent } from '../sse.js';
import { isObject, numberOr, stringOr, type JsonObject } from './json.js';
import { hubStopReason, statusForErrorType } from './stop-reason.js';
import { originFromSignature } from '../reasoning-envelope.js';
import { hubUsage, mergeCounts, readCounts, type AnthropicCounts } from './usage.js';
import { queryOf, searchFromResult, urlCitationOf, urlCitationsOf } from './web-search.js';
import { codeForStatus } from '../upstream-codes.js';

type BlockKind = 'text' | 'reasoning' | 'function_call';

const TEXT_DELTA_HEAD = '{"type":"content_block_delta","index":';
const TEXT_DELTA_MID = ',"delta":{"type":"text_delta","text":';

/**
 * Whether `data` holds `part` at `at`. Not startsWith: on Node 20 it compares character by
 * character (~0.2-0.3 µs for these 40-character heads, measured), a slice and === ~0.05.
 */
function hasAt(data: string, at: number, part: string): boolean {
  return data.slice(at, at + part.length) === part;
}

/**
 * Most of a Messages stream is text deltas, serialised by Anthropic in one fixed shape. Those are
 * read without building the event's objects: only the text's string literal is parsed (so its
 * escapes are undone and it is validated as JSON). Any other spelling returns undefined and takes
 * the full parse.
 */
export function readTextDelta(data: string): { index: number; text: string } | undefined {
  if (!hasAt(data, 0, TEXT_DELTA_HEAD) || !data.endsWith('}}')) return undefined;
  let i = TEXT_DELTA_HEAD.length;
  const digits = i;
  let index = 0;
  for (; i < data.length && i - digits < 9; i++) {
    const c = data.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    index = index * 10 + (c - 0x30);
  }
  if (i === digits || (data.charCodeAt(digits) === 0x30 && i - digits > 1) || !hasAt(data, i, TEXT_DELTA_MID)) return undefined;
  // not one string literal after all (undefined): the full parse decides
  const text = stringTokenValue(data.slice(i + TEXT_DELTA_MID.length, data.length - 2));
  return text === undefined ? undefined : { index, text };
}

export function createStreamDecoder(): StreamDecoder {
  return new MessagesStreamDecoder();
}

class MessagesStreamDecoder implements StreamDecoder {
  private started = false;
  private done = false;
  private counts: AnthropicCounts = {};
  private stopReason: StopReason | undefined;
  private stopSequence: string | undefined;
  /** Open upstream blocks: upstream index → hub index and kind. */
  private readonly open = new Map<number, { hub: number; kind: BlockKind }>();
  /**
   * Text blocks started empty: opened at their first text or citation, so one that stays empty is
   * no block, as the whole answer's decoder drops an empty text block (response-decode.ts).
   */
  private readonly unopened = new Set<number>();
  private nextHub = 0;
  /** Web search server_tool_use blocks: upstream index → id and the input JSON so far; then id → query. */
  private readonly searchInputs = new Map<number, { id: string; json: string }>();
  private readonly searchQueries = new Map<string, string | undefined>();

  push(ev: SseEvent): HubEvent[] {
    if (this.done || ev.event === 'ping' || ev.data.trim() === '') return [];
    const fast = readTextDelta(ev.data);
    if (fast !== undefined) {
      const block = this.open.get(fast.index);
      if (block !== undefined) return block.kind === 'text' && fast.text ? [{ type: 'text_delta', index: block.hub, text: fast.text }] : [];
      return fast.text && this.unopened.has(fast.index) ? this.openText(fast.index, (hub) => ({ type: 'text_delta', index: hub, text: fast.text })) : [];
    }
    let data: unknown;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return this.fail(502, 'upstream_invalid_response', 'The upstream sent a malformed stream event (not JSON).');
    }
    if (!isObject(data)) return this.fail(502, 'upstream_invalid_response', 'The upstream sent a malformed stream event.');
    switch (stringOr(data.type) ?? ev.event) {
      case 'message_start':
        return this.onMessageStart(data);
      case 'content_block_start':
        return this.onBlockStart(data);
      case 'content_block_delta':
        return this.onBlockDelta(data);
      case 'content_block_stop':
        return this.onBlockStop(data);
      case 'message_delta':
        this.onMessageDelta(data);
        return [];
      case 'message_stop':
        return this.onMessageStop();
      case 'error': {
        const err = isObject(data.error) ? data.error : {};
        const status = statusForErrorType(err.type);
        return this.fail(status, codeForStatus(status), stringOr(err.message) ?? 'The upstream reported an error mid-stream.');
      }
      default:
        return []; // ping and event types newer than this code
    }
  }

  end(): HubEvent[] {
    if (this.done) return [];
    return this.fail(502, 'upstream_stream_incomplete', 'The upstream stream ended before message_stop; the answer is incomplete.');
  }

  private fail(status: number, code: string, message: string): HubEvent[] {
    this.done = true;
    return [{ type: 'error', error: { status, code, message } }];
  }

  private ensureStarted(out: HubEvent[]): void {
    if (this.started) return;
    this.started = true;
    out.push({ type: 'start' });
  }

  private onMessageStart(data: JsonObject): HubEvent[] {
    if (this.started) return [];
    this.started = true;
    const msg = isObject(data.message) ? data.message : {};
    this.counts = readCounts(msg.usage);
    const ev: Extract<HubEvent, { type: 'start' }> = { type: 'start' };
    const id = stringOr(msg.id);
    if (id) ev.id = id;
    const model = stringOr(msg.model);
    if (model) ev.model = model;
    // Only the input side is final at this point; output_tokens here is a placeholder.
    const { outputTokens: _placeholder, ...input } = hubUsage(this.counts);
    if (Object.keys(input).length > 0) ev.usage = input;
    return [ev];
  }

  private onBlockStart(data: JsonObject): HubEvent[] {
    const index = numberOr(data.index);
    const block = data.content_block;
    if (index === undefined || !isObject(block) || this.open.has(index) || this.unopened.has(index)) return [];
    const out: HubEvent[] = [];
    this.ensureStarted(out);
    const hub = this.nextHub;
    switch (block.type) {
      case 'text': {
        const citations = urlCitationsOf(block.citations);
        const text = stringOr(block.text);
        if (!text && citations.length === 0) {
          this.unopened.add(index);
          return out;
        }
        out.push({ type: 'block_start', index: hub, block: { type: 'text' } });
        for (const citation of citations) out.push({ type: 'citation', index: hub, citation });
        if (text) out.push({ type: 'text_delta', index: hub, text });
        this.open.set(index, { hub, kind: 'text' });
        break;
      }
      case 'thinking': {
        out.push({ type: 'block_start', index: hub, block: { type: 'reasoning' } });
        const text = stringOr(block.thinking);
        if (text) out.push({ type: 'reasoning_delta', index: hub, text });
        const signature = stringOr(block.signature);
        if (signature) out.push({ type: 'reasoning_origin', index: hub, origin: originFromSignature(signature) });
        this.open.set(index, { hub, kind: 'reasoning' });
        break;
      }
      case 'redacted_thinking':
        out.push({ type: 'block_start', index: hub, block: { type: 'reasoning', origin: { kind: 'anthropic_redacted', data: stringOr(block.data) ?? '' } } });
        this.open.set(index, { hub, kind: 'reasoning' });
        break;
      case 'tool_use': {
        out.push({ type: 'block_start', index: hub, block: { type: 'function_call', callId: stringOr(block.id) ?? '', name: stringOr(block.name) ?? '' } });
        // Normally `{}` with the input streamed as deltas; some servers send it whole here.
        if (isObject(block.input) && Object.keys(block.input).length > 0) out.push({ type: 'arguments_delta', index: hub, json: JSON.stringify(block.input) });
        this.open.set(index, { hub, kind: 'function_call' });
        break;
      }
      case 'server_tool_use':
        if (block.name === 'web_search' && typeof block.id === 'string') {
          const whole = isObject(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : '';
          this.searchInputs.set(index, { id: block.id, json: whole });
        }
        return out;
      case 'web_search_tool_result': {
        const id = stringOr(block.tool_use_id);
        const search = searchFromResult(block, id === undefined ? undefined : this.searchQueries.get(id));
        out.push({ type: 'block_start', index: hub, block: { type: 'web_search', search } }, { type: 'block_stop', index: hub });
        break;
      }
      default:
        return out; // other server-tool blocks: nothing a non-Anthropic client can use
    }
    this.nextHub++;
    return out;
  }

  private onBlockDelta(data: JsonObject): HubEvent[] {
    const index = numberOr(data.index);
    const block = index === undefined ? undefined : this.open.get(index);
    const delta = data.delta;
    if (!block && index !== undefined && isObject(delta) && delta.type === 'input_json_delta') this.searchInput(index, delta);
    if (!block && index !== undefined && isObject(delta) && this.unopened.has(index)) return this.openEmptyText(index, delta);
    if (!block || !isObject(delta)) return [];
    const hub = block.hub;
    switch (delta.type) {
      case 'text_delta': {
        const text = stringOr(delta.text);
        return block.kind === 'text' && text ? [{ type: 'text_delta', index: hub, text }] : [];
      }
      case 'thinking_delta': {
        const text = stringOr(delta.thinking);
        return block.kind === 'reasoning' && text ? [{ type: 'reasoning_delta', index: hub, text }] : [];
      }
      case 'signature_delta': {
        const signature = stringOr(delta.signature);
        return block.kind === 'reasoning' && signature ? [{ type: 'reasoning_origin', index: hub, origin: originFromSignature(signature) }] : [];
      }
      case 'input_json_delta': {
        const json = stringOr(delta.partial_json);
        return block.kind === 'function_call' && json ? [{ type: 'arguments_delta', index: hub, json }] : [];
      }
      case 'citations_delta': {
        const citation = urlCitationOf(delta.citation);
        return block.kind === 'text' && citation ? [{ type: 'citation', index: hub, citation }] : [];
      }
      default:
        return []; // newer delta types
    }
  }

  private searchInput(index: number, delta: JsonObject): void {
    const input = this.searchInputs.get(index);
    const json = stringOr(delta.partial_json);
    if (input && json) input.json += json;
  }

  private onBlockStop(data: JsonObject): HubEvent[] {
    const index = numberOr(data.index);
    const block = index === undefined ? undefined : this.open.get(index);
    const search = index === undefined || this.searchInputs.size === 0 ? undefined : this.searchInputs.get(index);
    if (search) {
      this.searchInputs.delete(index!);
      this.searchQueries.set(search.id, queryOf(search.json));
    }
    if (!block) {
      if (index !== undefined) this.unopened.delete(index);
      return [];
    }
    this.open.delete(index!);
    return [{ type: 'block_stop', index: block.hub }];
  }

  /** A delta to a text block started empty: its first text or citation opens it. */
  private openEmptyText(index: number, delta: JsonObject): HubEvent[] {
    if (delta.type === 'text_delta') {
      const text = stringOr(delta.text);
      return text ? this.openText(index, (hub) => ({ type: 'text_delta', index: hub, text })) : [];
    }
    if (delta.type === 'citations_delta') {
      const citation = urlCitationOf(delta.citation);
      return citation ? this.openText(index, (hub) => ({ type: 'citation', index: hub, citation })) : [];
    }
    return [];
  }

  private openText(index: number, first: (hub: number) => HubEvent): HubEvent[] {
    this.unopened.delete(index);
    const hub = this.nextHub++;
    this.open.set(index, { hub, kind: 'text' });
    return [{ type: 'block_start', index: hub, block: { type: 'text' } }, first(hub)];
  }

  private onMessageDelta(data: JsonObject): void {
    const delta = isObject(data.delta) ? data.delta : {};
    if (delta.stop_reason !== undefined && delta.stop_reason !== null) this.stopReason = hubStopReason(delta.stop_reason);
    const stopSequence = stringOr(delta.stop_sequence);
    if (stopSequence !== undefined) this.stopSequence = stopSequence;
    this.counts = mergeCounts(this.counts, readCounts(data.usage));
  }

  private onMessageStop(): HubEvent[] {
    const out: HubEvent[] = [];
    this.ensureStarted(out);
    // A block the upstream never closed is closed here so encoders see a well-formed sequence.
    for (const { hub } of this.open.values()) out.push({ type: 'block_stop', index: hub });
    this.open.clear();
    const finish: Extract<HubEvent, { type: 'finish' }> = { type: 'finish', stopReason: this.stopReason ?? 'end_turn' };
    if (this.stopSequence !== undefined) finish.stopSequence = this.stopSequence;
    const usage = hubUsage(this.counts);
    if (Object.keys(usage).length > 0) finish.usage = usage;
    out.push(finish);
    this.done = true;
    return out;
  }
}
