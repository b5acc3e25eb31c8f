/**
 * Node's HTTP server keeps the parser of each closed connection for the next one, up to 1,000 of
 * them (the `parsers` free list in node's internal `_http_common` module), and each holds its
 * native half in the C heap. After a burst of concurrent connections the list stays full for the
 * life of the process: with 1,000 spare parsers, the C heap was 1.9-2.0 MB larger on Node 20,
 * 1.3-1.6 MB on Node 22 and 7.3-7.6 MB on Node 24 than once they were closed (after malloc_trim,
 * two runs each).
 *
 * The idle collector calls releaseSpareHttpParsers: the spares beyond a few are closed, as node
 * itself closes those that find the list full; a later connection gets a new one, as the first
 * connections after start do.
 * The list is internal (`_http_common` is a documentation-only deprecation, DEP0199, since Node
 * 24: no warning at run time); where a Node no longer has it there, nothing is released.
 */
import { createRequire } from 'node:module';

/** Spare parsers kept: enough for a laptop's tools opening connections at once. */
export const SPARE_PARSERS_KEPT = 16;

interface SpareParser {
  close(): void;
}

interface ParserFreeList {
  list: SpareParser[];
}

function isParserFreeList(value: unknown): value is ParserFreeList {
  const list = (value as { list?: unknown } | null)?.list;
  return Array.isArray(list) && list.every((p) => typeof (p as { close?: unknown } | null)?.close === 'function');
}

/** Node's free list of HTTP parsers, or null where it is not where this Node version kept it. */
export function nodeParserFreeList(): ParserFreeList | null {
  try {
    const common = createRequire(import.meta.url)('_http_common') as { parsers?: unknown };
    return isParserFreeList(common.parsers) ? common.parsers : null;
  } catch {
    return null;
  }
}

/** Close the spare parsers beyond `keep`; returns how many were closed. */
export function releaseSpareHttpParsers(keep = SPARE_PARSERS_KEPT, freeList: ParserFreeList | null = nodeParserFreeList()): number {
  if (!freeList || freeList.list.length <= keep) return 0;
  // out of the list first: nothing may hand a closed parser to a new connection
  const spare = freeList.list.splice(keep);
  for (const parser of spare) parser.close();
  return spare.length;
}
