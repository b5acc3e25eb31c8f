/** Chat codec test fixtures (golden files), and the Chat stream decoder fed through the real SSE parser. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
export function decodePieces(pieces: ReadonlyArray<Uint8Array>): HubEvent[] {
  return decodeChunks(chatCodec.createStreamDecoder(), pieces);
}
