/** Feeds SSE bytes through the real SseParser and a codec stream decoder, in given chunks. */
import type { StreamDecoder } from '../../../src/protocols/codec.js';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { SseParser } from '../../../src/protocols/sse.js';

export function replay(decoder: StreamDecoder, chunks: Iterable<Uint8Array>): HubEvent[] {
  const events: HubEvent[] = [];
  const parser = new SseParser((ev) => events.push(...decoder.push(ev)));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  events.push(...decoder.end());
  return events;
}

/** The bytes cut at the given offsets (sorted, within bounds). */
export function cutAt(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => Math.max(0, Math.min(bytes.length, o))))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let last = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(last, p));
    last = p;
  }
  chunks.push(bytes.subarray(last));
  return chunks;
}
