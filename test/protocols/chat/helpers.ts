/** Shared helpers for the Chat codec tests: golden fixture files and SSE replay. */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** Set CHAT_GOLDEN_UPDATE=1 to (re)write the `expected` of golden files; review the diff before committing. */
export const UPDATE = process.env.CHAT_GOLDEN_UPDATE === '1';

export interface Golden<T = Record<string, unknown>> {
  file: string;
  path: string;
  data: T;
}

export function goldenFiles<T = Record<string, unknown>>(dir: string, ext = '.json'): Golden<T>[] {
  const base = join(FIXTURES, dir);
  return readdirSync(base)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((file) => ({ file, path: join(base, file), data: JSON.parse(readFileSync(join(base, file), 'utf8')) as T }));
}

export function writeGolden(g: Golden, data: Record<string, unknown>): void {
  writeFileSync(g.path, JSON.stringify(data, null, 2) + '\n');
}

/** Drops undefined fields the way a JSON round trip does, so objects compare like their fixtures. */
export function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Feeds byte pieces to a fresh parser + Chat stream decoder and returns every hub event. */
export function decodePieces(pieces: ReadonlyArray<Uint8Array>): HubEvent[] {
  const decoder = chatCodec.createStreamDecoder();
  const events: HubEvent[] = [];
  const parser = new SseParser((ev: SseEvent) => events.push(...decoder.push(ev)));
  for (const p of pieces) parser.push(p);
  parser.end();
  events.push(...decoder.end());
  return events;
}

/** Parses an SSE text into its `data:` payloads (JSON objects, or the string "[DONE]"). */
export function parseSse(text: string): unknown[] {
  const out: unknown[] = [];
  const parser = new SseParser((ev) => out.push(ev.data === '[DONE]' ? '[DONE]' : JSON.parse(ev.data)));
  parser.push(Buffer.from(text, 'utf8'));
  parser.end();
  return out;
}

/** Deterministic pseudo-random generator (mulberry32) for reproducible random splits. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
