/**
 * V8's memory-reducing full collection — the one it runs under memory pressure. Unlike a plain
 * gc() it also shrinks the young generation back (after a burst its two semi-spaces hold 32 MB
 * that gc() keeps) and releases emptied old-space pages: in a test process, RSS 106 → 51 MB
 * where gc() left it at 106. Node reaches it only through v8.queryObjects(), which runs V8's
 * CollectAllAvailableGarbage before it counts; counting a class nothing ever instantiates makes
 * the count itself trivial. No --expose-gc needed.
 */
import { queryObjects } from 'node:v8';

/** Never instantiated: the count is always 0. */
class NothingToCount {}

export function reduceHeap(): void {
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
