/** Shared helpers for the Messages codec tests: fixtures, SSE replay with arbitrary chunking. */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StreamDecoder } from '../../../src/protocols/codec.js';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixtureBytes(rel: string): Buffer {
  return readFileSync(join(FIXTURES, rel));
}

export function fixtureJson<T = unknown>(rel: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, rel), 'utf8')) as T;
}

export function fixtureNames(dir: string, ext: string): string[] {
  return readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith(ext))
    .map((f) => f.slice(0, -ext.length))
    .sort();
}

/** Parse SSE bytes delivered in the given chunks; returns every event. */
export function parseSse(chunks: Uint8Array[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  parser.end();
  return events;
}

/** Run bytes (in the given chunks) through the SSE parser and a stream decoder, ending it. */
export function decodeChunks(decoder: StreamDecoder, chunks: Uint8Array[]): HubEvent[] {
  const out: HubEvent[] = [];
  const parser = new SseParser((e) => out.push(...decoder.push(e)));
  for (const c of chunks) parser.push(c);
  parser.end();
  out.push(...decoder.end());
  return out;
}

/** Split `buf` at the given sorted offsets. */
export function splitAt(buf: Buffer, offsets: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let prev = 0;
  for (const o of offsets) {
    chunks.push(buf.subarray(prev, o));
    prev = o;
  }
  chunks.push(buf.subarray(prev));
  return chunks;
}

/** Small deterministic PRNG (mulberry32) so random splits are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomOffsets(len: number, rnd: () => number, max = 12): number[] {
  const n = 1 + Math.floor(rnd() * max);
  const set = new Set<number>();
  for (let i = 0; i < n; i++) set.add(1 + Math.floor(rnd() * Math.max(1, len - 1)));
  return [...set].sort((a, b) => a - b);
}

/** Wire JSON viewed loosely, for assertions on deep paths of encoded bodies. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only view of arbitrary JSON
export type Loose = any;
