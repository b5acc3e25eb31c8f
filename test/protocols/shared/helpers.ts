/**
 * Helpers every protocol test folder shares: a seeded random generator, byte splitting, SSE
 * replay through the real parser, golden-file reading and writing, and the "only clean errors"
 * check used by the property tests.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { StreamDecoder, StreamEncoder } from '../../../src/protocols/codec.js';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { HubEvent, UrlCitation } from '../../../src/protocols/hub.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';

/** `UPDATE_GOLDEN=1` rewrites the expected side of golden files; review the diff before committing. */
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/** Deterministic pseudo-random generator (mulberry32): reproducible random splits and picks. */
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

/** `bytes` (or text) cut at the given offsets (any order, duplicates and out-of-range values tolerated). */
export function splitAt(bytes: Uint8Array, offsets: ReadonlyArray<number>): Uint8Array[];
export function splitAt(text: string, offsets: ReadonlyArray<number>): string[];
export function splitAt(whole: Uint8Array | string, offsets: ReadonlyArray<number>): Array<Uint8Array | string> {
  const piece = (from: number, to?: number): Uint8Array | string => (typeof whole === 'string' ? whole.slice(from, to) : whole.subarray(from, to));
  const points = [...new Set(offsets.map((o) => Math.max(0, Math.min(whole.length, o))))].sort((a, b) => a - b);
  const chunks: Array<Uint8Array | string> = [];
  let last = 0;
  for (const p of points) {
    chunks.push(piece(last, p));
    last = p;
  }
  chunks.push(piece(last));
  return chunks;
}

/** Between 1 and `max` distinct cut points inside a buffer of `len` bytes. */
export function randomOffsets(len: number, rnd: () => number, max = 12): number[] {
  const n = 1 + Math.floor(rnd() * max);
  const set = new Set<number>();
  for (let i = 0; i < n; i++) set.add(1 + Math.floor(rnd() * Math.max(1, len - 1)));
  return [...set].sort((a, b) => a - b);
}

/** Every way the tests cut a stream: in two at each byte offset, one byte at a time, and seeded random cuts. */
export function* everySplit(bytes: Uint8Array, randomRuns = 20, seed = 7): Generator<Uint8Array[]> {
  for (let i = 0; i <= bytes.length; i++) yield [bytes.subarray(0, i), bytes.subarray(i)];
  yield [...bytes].map((b) => Uint8Array.of(b));
  const rnd = rng(seed);
  for (let r = 0; r < randomRuns; r++) yield splitAt(bytes, randomOffsets(bytes.length, rnd));
}

/** SSE events of `chunks` as the real parser delivers them. */
export function parseSseEvents(chunks: Iterable<Uint8Array>): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((e) => events.push(e));
  for (const c of chunks) parser.push(c);
  parser.end();
  return events;
}

/** Bytes (in the given chunks) through the SSE parser and a stream decoder, ended: every hub event. */
export function decodeChunks(decoder: StreamDecoder, chunks: Iterable<Uint8Array>): HubEvent[] {
  const out: HubEvent[] = [];
  const parser = new SseParser((e) => out.push(...decoder.push(e)));
  for (const c of chunks) parser.push(c);
  parser.end();
  out.push(...decoder.end());
  return out;
}

/**
 * Upstream bytes → parser → decoder → encoder → the client's SSE text, written as it is produced
 * chunk by chunk (what the proxy flushes), joined.
 */
export function relayChunks(decoder: StreamDecoder, encoder: StreamEncoder, chunks: Iterable<Uint8Array>): string {
  let text = '';
  const parser = new SseParser((e) => {
    for (const ev of decoder.push(e)) text += encoder.encode(ev);
  });
  for (const c of chunks) parser.push(c);
  parser.end();
  for (const ev of decoder.end()) text += encoder.encode(ev);
  return text;
}

/** The `data:` payloads of an SSE text: parsed JSON, or the string "[DONE]". */
export function sseData(text: string): unknown[] {
  return parseSseEvents([Buffer.from(text, 'utf8')]).map((ev) => (ev.data === '[DONE]' ? '[DONE]' : JSON.parse(ev.data)));
}

/** Drops undefined fields the way a JSON round trip does, so objects compare like their fixtures. */
export function plain<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function writeJson(path: string, data: unknown): void {
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
}

/** Names of the files in `dir` ending in `ext` (extension removed), sorted. */
export function namesIn(dir: string, ext: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => f.slice(0, -ext.length))
    .sort();
}

/** Runs `fn`; anything it throws must be a clean ProtocolError (a 4xx/5xx with a stable code). */
export function onlyProtocolErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    expect(err.status).toBeGreaterThanOrEqual(400);
    expect(typeof err.code).toBe('string');
    expect(err.code.length).toBeGreaterThan(0);
  }
}

export type JsonPath = Array<string | number>;

/** Every path (list of keys, the root included) into a JSON value. */
export function jsonPaths(v: unknown, at: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => jsonPaths(x, [...at, i], out));
  else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) jsonPaths(x, [...at, k], out);
  return out;
}

export type Mutation = { op: 'replace'; value: unknown } | { op: 'delete' } | { op: 'wrap' } | { op: 'stringify' };

/** A copy of `root` with the part at `path` replaced, removed, wrapped in an array or turned into its JSON text. */
export function mutateAt(root: unknown, path: JsonPath, m: Mutation): unknown {
  // At the root "delete" leaves JSON null, so the result is still a JSON value.
  if (path.length === 0) return m.op === 'replace' ? m.value : m.op === 'wrap' ? [root] : m.op === 'stringify' ? JSON.stringify(root) : null;
  const copy: unknown = structuredClone(root);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (m.op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (m.op === 'wrap') parent[last] = [parent[last]];
  else if (m.op === 'stringify') parent[last] = JSON.stringify(parent[last]);
  else parent[last] = m.value;
  return copy;
}

/**
 * Values that trip up codecs more often than random JSON does. The two `svcp1.` strings look like
 * our reasoning envelope but are damaged ones (no JSON; an `openai` origin without id/content):
 * codecs must take them as unsigned reasoning, never as a provider's own value. They cannot fail a property by chance: the properties
 * fed from here assert only clean errors and stream/SSE shape, never a round-trip value an envelope
 * would change, and the codecs are pure, so any failure replays from fast-check's seed.
 */
export const awkwardJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, '', 0, -1, 1e308, true, [], {}, 'svcp1.', 'svcp1.eyJraW5kIjoib3BlbmFpIn0', '__proto__', 'data:image/png;base64,', { type: 'text' }, { type: 'tool_use' }, { type: 'ephemeral' }),
);

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  awkwardJson.map((value): Mutation => ({ op: 'replace', value })),
  fc.constantFrom<Mutation>({ op: 'delete' }, { op: 'wrap' }, { op: 'stringify' }),
);

/** One of `samples` with `edits` random parts replaced, removed, wrapped or stringified ("valid-ish" input). */
export function mutatedSamples(samples: ReadonlyArray<unknown>, edits: { minLength: number; maxLength: number } = { minLength: 1, maxLength: 1 }): fc.Arbitrary<unknown> {
  return fc.tuple(fc.constantFrom(...samples), fc.nat(), fc.array(mutation, edits)).map(([sample, pick, ms]) => mutateAll(sample, pick, ms));
}

/** Applies mutations one after the other, each at a path chosen from `pick` among the current value's paths. */
export function mutateAll(value: unknown, pick: number, ms: ReadonlyArray<Mutation>): unknown {
  let out = value;
  ms.forEach((m, i) => {
    const all = jsonPaths(out);
    out = mutateAt(out, all[(pick + i * 7919) % all.length]!, m);
  });
  return out;
}

/** Wire JSON viewed loosely, for assertions on deep paths of encoded bodies. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only view of arbitrary JSON
export type Loose = any;

/**
 * Hub events of adjacent text blocks from index 0, as a Messages upstream splits an answer around
 * what it cites: each block's citation comes before its text, or after it when `citeAfter`.
 */
export function textBlockEvents(blocks: ReadonlyArray<{ text: string; citation?: UrlCitation; citeAfter?: boolean }>): HubEvent[] {
  return blocks.flatMap(({ text, citation, citeAfter }, index): HubEvent[] => {
    const cite: HubEvent[] = citation ? [{ type: 'citation', index, citation }] : [];
    const delta: HubEvent = { type: 'text_delta', index, text };
    return [{ type: 'block_start', index, block: { type: 'text' } }, ...(citeAfter ? [delta, ...cite] : [...cite, delta]), { type: 'block_stop', index }];
  });
}
