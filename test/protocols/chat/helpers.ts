/** Chat codec test fixtures (golden files), and the Chat stream decoder fed bytes (through the real SSE parser) or chunk data lines. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type { DecodeOptions } from '../../../src/protocols/codec.js';
import type { HubEvent } from '../../../src/protocols/hub.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { decodeChunks, writeJson } from '../shared/helpers.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

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

/** Rewrites a golden file (UPDATE_GOLDEN=1); review the diff before committing. */
export function writeGolden(g: Golden, data: Record<string, unknown>): void {
  writeJson(g.path, data);
}

/** Byte pieces through a fresh SSE parser and Chat stream decoder: every hub event, end included. */
export function decodePieces(pieces: ReadonlyArray<Uint8Array>, opts?: DecodeOptions): HubEvent[] {
  return decodeChunks(chatCodec.createStreamDecoder(opts), pieces);
}

/** A stream fixture's decode options (as a provider would choose them): `<name>.options.json` beside `<name>.sse`, if any. */
export function streamOptions(sseFile: string): DecodeOptions | undefined {
  const path = join(FIXTURES, 'streams', sseFile.replace(/\.sse$/, '.options.json'));
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DecodeOptions) : undefined;
}

/** Chunk data lines (JSON text or `[DONE]`) through a fresh Chat stream decoder, ended: every hub event. */
export function decodeLines(lines: ReadonlyArray<string>, opts?: DecodeOptions): HubEvent[] {
  const d = chatCodec.createStreamDecoder(opts);
  const out: HubEvent[] = [];
  for (const data of lines) out.push(...d.push({ data }));
  out.push(...d.end());
  return out;
}

/** A chunk of one choice carrying `delta`, the same frame every time (so the text-only shortcut engages). */
export const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ id: 'chatcmpl-t', model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...extra });

export const finish = (reason: string): string => JSON.stringify({ id: 'chatcmpl-t', choices: [{ index: 0, delta: {}, finish_reason: reason }] });

/** decodeLines, counting the chunks parsed whole (JSON.parse of an object's text) on the way. */
export function decodeCountingParses(lines: ReadonlyArray<string>, opts?: DecodeOptions): { events: HubEvent[]; wholeChunks: number } {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    const events = decodeLines(lines, opts);
    return { events, wholeChunks: parse.mock.calls.filter(([arg]) => String(arg).startsWith('{')).length };
  } finally {
    parse.mockRestore();
  }
}
