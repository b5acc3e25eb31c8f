/**
 * Give back the heap a burst grew: collect its garbage, release emptied old-space pages and shrink
 * the young generation (after a burst its two semi-spaces hold 32 MB, 128 on Node 24).
 *
 * Node 22 and later (V8 12+) keep the pages a collection frees in a pool, which only a
 * memory-reducing collection releases: after a plain one the young generation reads 1 MB while RSS
 * keeps all of it (a test process stayed at 237 MB; the daemon after 300 streams at 142 against
 * 93 before). Their gc() extension runs that collection when asked for the 'last-resort' flavour
 * (V8's CollectAllAvailableGarbage): RSS 237 → 70 MB for 40–65 ms, and that is what runs there.
 *
 * Node 20's V8 does not know that flavour and frees pages at once. Its plain full collection gives
 * the young generation back when V8 measures a low allocation rate (under ~1 KB/ms over its 5 s
 * window, counted from the collection before): in a test process, RSS 202 → 73 MB for 61 ms of
 * CPU. The first collection after a burst counts the burst's tail and keeps the 32 MB in about
 * half the runs; one more after 5.5 quiet seconds gave it back in 12 runs of 12. Its
 * memory-reducing collection is reached only through v8.queryObjects(), which then walks every
 * object of the heap to count them: 0.3–0.4 s of CPU in the daemon, with nothing answered
 * meanwhile; it runs only when forced.
 *
 * The collections are V8's gc() extension, switched on at run time (--expose-gc) and taken from a
 * fresh vm context, where V8 installs it; the daemon's own global scope never gets a `gc`.
 *
 * They also compact the old generation (--compact-on-every-full-gc, on for that one collection
 * only). By its own measure V8 evacuates only pages that are mostly empty, so the pages a burst
 * left a quarter or half full stay resident: in the daemon after the bench's scenarios, old space
 * held 15.7 MB for 13.2 MB of live objects; compacted, 13.7. RSS at rest after them went 74.5 →
 * 71.5 MB, after 1,000 streams on top 81 → 75, for ~15–20 ms more per collection (30–50 ms in
 * all, on V8's parallel compaction threads).
 */
import { getHeapSpaceStatistics, queryObjects, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Young generation this small after the collection: it was shrunk (idle size is ~1 MB). */
const YOUNG_SHRUNK_BYTES = 4 * 1024 * 1024;

/**
 * What it did: a plain full collection that gave the heap back, the memory-reducing one, or a plain
 * one that kept the grown young generation (only without `force`).
 */
export type HeapReduction = 'full' | 'memory-reducing' | 'full-young-kept';

/** Never instantiated: queryObjects' count is always 0. */
class NothingToCount {}

/** Node 22+: freed pages are pooled, and gc({ flavor: 'last-resort' }) is the memory-reducing collection. */
export const POOLS_FREED_PAGES = Number(process.versions.v8.split('.')[0]) >= 12;

let compactingGc: GcExtension | null | undefined;

const COMPACT_FLAG = 'compact-on-every-full-gc';
const LAST_RESORT = { type: 'major', flavor: 'last-resort' } as const;

/** The user runs node with the flag on: it stays on, rather than being switched off after ours. */
function compactingAlready(): boolean {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').replaceAll('_', '-');
  return given.includes(`--${COMPACT_FLAG}`);
}

type GcExtension = (options?: typeof LAST_RESORT) => void;

/** The gc() extension, compacting for each call; null where the runtime has none. */
function fullCollection(): GcExtension | null {
  if (compactingGc !== undefined) return compactingGc;
  compactingGc = null;
  try {
    let gc: unknown = (globalThis as { gc?: unknown }).gc; // node --expose-gc
    if (typeof gc !== 'function') {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc');
    }
    if (typeof gc === 'function') {
      const collect = gc as GcExtension;
      const toggle = !compactingAlready();
      compactingGc = (options) => {
        if (toggle) setFlagsFromString(`--${COMPACT_FLAG}`);
        try {
          collect(options);
        } finally {
          if (toggle) setFlagsFromString(`--no-${COMPACT_FLAG}`);
        }
      };
    }
  } catch {
    // a runtime without the gc extension: the memory-reducing collection does the whole job
  }
  return compactingGc;
}

export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0;
}

/**
 * One full, compacting collection. On Node 22+ the memory-reducing one, which is cheap there. On
 * Node 20 a plain one first; with `force`, the memory-reducing one follows when the plain one kept
 * the grown heap. The idle collector decides when that is worth its cost.
 */
export function reduceHeap(force: boolean): HeapReduction {
  const gc = fullCollection();
  if (gc && POOLS_FREED_PAGES) {
    gc(LAST_RESORT);
    return 'memory-reducing';
  }
  if (gc) {
    gc();
    if (youngGenerationBytes() <= YOUNG_SHRUNK_BYTES) return 'full';
    if (!force) return 'full-young-kept';
  }
  memoryReducingCollection();
  return 'memory-reducing';
}

function memoryReducingCollection(): void {
  // queryObjects is marked experimental and says so once per process on stderr (daemon.log, or a
  // foreground daemon's console); the daemon uses it only for this side effect, so that one
  // ExperimentalWarning is swallowed.
  const emitWarning = process.emitWarning;
  process.emitWarning = (warning: string | Error, ...rest: unknown[]) => {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: unknown } | undefined)?.type;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (type === 'ExperimentalWarning' && text.includes('queryObjects')) return;
    (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
  };
  try {
    queryObjects(NothingToCount, { format: 'count' });
  } finally {
    process.emitWarning = emitWarning;
  }
}
