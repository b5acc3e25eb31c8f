/**
 * An answer's content blocks rebuilt from its Messages event stream, as the whole answer would
 * have carried them: each `content_block_start` block with its deltas applied (text, thinking and
 * its signature, a tool input's JSON, citations). Used to send a paused turn back to its
 * upstream verbatim — signatures and encrypted search results included — which is how a
 * `pause_turn` is continued (routing/pause-continue.ts). Several streams in a row append to the
 * same list: each `message_start` begins a new set of upstream indices.
 */
import type { SseEvent } from '../sse.js';
import { isObject, type JsonObject } from './json.js';

interface OpenBlock {
  block: JsonObject;
  /** input_json_delta pieces, joined and parsed at the block's stop. */
  json: string;
}

export class MessageContentAccumulator {
  private readonly done: JsonObject[] = [];
  private readonly open = new Map<number, OpenBlock>();

  push(ev: SseEvent): void {
    if (ev.event === 'ping' || ev.data === '') return;
    let data: unknown;
    try {
      data = JSON.parse(ev.data);
    } catch {
      return; // the decoder reports a malformed event; nothing is continued after it
    }
    if (!isObject(data)) return;
    const index = typeof data.index === 'number' ? data.index : -1;
    switch (data.type) {
      case 'message_start':
        this.closeAll();
        return;
      case 'content_block_start':
        if (isObject(data.content_block)) this.open.set(index, { block: { ...data.content_block }, json: '' });
        return;
      case 'content_block_delta': {
        const open = this.open.get(index);
        if (open && isObject(data.delta)) applyDelta(open, data.delta);
        return;
      }
      case 'content_block_stop':
        this.close(index);
        return;
      case 'message_stop':
        this.closeAll();
        return;
      default:
        return;
    }
  }

  /** Every block closed so far, in order; blocks still open are closed as they stand. */
  blocks(): JsonObject[] {
    this.closeAll();
    return this.done.slice();
  }

  private close(index: number): void {
    const open = this.open.get(index);
    if (!open) return;
    this.open.delete(index);
    if (open.json !== '') {
      try {
        open.block.input = JSON.parse(open.json) as unknown;
      } catch {
        // an input cut off mid-JSON stays as it started ({}); the upstream judges it
      }
    }
    this.done.push(open.block);
  }

  private closeAll(): void {
    for (const index of [...this.open.keys()].sort((a, b) => a - b)) this.close(index);
  }
}

function applyDelta(open: OpenBlock, delta: JsonObject): void {
  const b = open.block;
  switch (delta.type) {
    case 'text_delta':
      b.text = String(b.text ?? '') + String(delta.text ?? '');
      return;
    case 'thinking_delta':
      b.thinking = String(b.thinking ?? '') + String(delta.thinking ?? '');
      return;
    case 'signature_delta':
      b.signature = delta.signature;
      return;
    case 'input_json_delta':
      open.json += String(delta.partial_json ?? '');
      return;
    case 'citations_delta':
      b.citations = [...(Array.isArray(b.citations) ? (b.citations as unknown[]) : []), delta.citation];
      return;
    default:
      return;
  }
}
