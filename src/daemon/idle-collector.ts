/**
 * Hands back the memory a burst of traffic leaves behind. V8 collects when a program allocates,
 * and an idle daemon hardly allocates: after 1,000 concurrent streams the heap held 75 MB of
 * which 18 MB was live, and 30 s of idleness collected none of it. glibc, in turn, keeps the
 * socket buffers and ArrayBuffer stores freed by a collection: ~60 MB of free pages inside its
 * arena, which free() never returns.
 *
 * So every few seconds this looks at the process. When it is idle (almost no CPU used since the
 * last look, no request being answered) and has grown well past where it settled last time — more
 * heap than was live after the last collection, or more resident memory — it runs one sequence: a
 * full collection; closing the upstream connections a burst left open (and the spare HTTP parsers
 * of its client connections, http-parser-pool.ts) and, once they are closed, another collection
 * for their sockets and buffers; a moment's wait — V8 frees ArrayBuffer stores
 * on a background thread after a collection — and a trim of the C heap (malloc-trim.ts).
 *
 * The grown heap itself (the young generation's 32 MB, emptied old-space pages) Node 22+ gives
 * back in the memory-reducing collection each sequence runs there (reduce-heap.ts). Node 20 gives
 * it back in a plain collection only when little was allocated since the one before, over its 5 s
 * window. The first collection after a burst counts the burst's tail, so it usually keeps the heap;
 * the sequence then runs again at the first idle look 6 s later, whose collection gives it back
 * for 30–60 ms of CPU. Only when plain collections keep it twice does the memory-reducing one run,
 * which on Node 20 walks the whole heap (0.3–0.4 s). Each collection also compacts the old
 * generation's half-empty pages.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { getHeapStatistics } from 'node:v8';
import type { MallocTrim } from './malloc-trim.js';

export interface CollectorProbes {
  /**
   * Let go of what a burst left outside the heap (idle upstream connections, the HTTP server's
   * spare parsers); resolves once it is gone, with how many things it let go.
   */
  shed(): Promise<number>;
  /**
   * A full collection; whether the grown heap was given back too. With `force`, it is, whatever it
   * costs (reduce-heap.ts).
   */
  gc(force: boolean): boolean;
  /** glibc's malloc_trim, or null where the native helper is not built. */
  trim: MallocTrim | null;
  /** CPU time the process has used so far, in ms. */
  cpuMs(): number;
  /** A monotonic clock, in ms. */
  nowMs(): number;
  /**
   * Requests being answered now. A full collection holds the event loop (30–60 ms, or 0.3–0.4 s
   * when it must walk the heap), so it never runs under a request — not even a slow stream that
   * uses almost no CPU — and a request that arrives while the connections close skips the second.
   */
  requestsInFlight(): number;
  heapUsedBytes(): number;
  rssBytes(): number;
}

export interface CollectorOptions {
  /** How often to look (default 3 s). */
  intervalMs: number;
  /** Idle: at most this share of one core used since the last look (default 1%). */
  idleCpuShare: number;
  /**
   * Collect when heap or RSS is this much above where it settled last time (default 8 MB). At 16
   * MB a daemon that had collected between two busy spells stayed 19 MB above a fresh one (82
   * against 63 in the bench).
   */
  growthBytes: number;
  /** Wait between the collection and the trim, for V8's background freeing (default 1 s). */
  trimDelayMs: number;
  /**
   * When a collection kept the grown heap, run the sequence again this long after it (default
   * 6 s: V8 measures the allocation rate over 5 s).
   */
  giveBackAfterMs: number;
  /**
   * Plain collections after a quiet spell that may keep the grown heap before the memory-reducing
   * one runs (default 2).
   */
  plainTries: number;
  /**
   * Run the sequence once at the first idle look after start, grown or not: what starting left
   * (the young generation, V8's pooled pages) is given back too. A settled daemon's RSS went
   * 64.3 → 61.5 MB on Node 20, 75.4 → 70.6 on Node 22 and 84.9 → 75.7 on Node 24.
   */
  afterStart: boolean;
}

/** What one look did. */
export type CollectorOutcome = 'nothing' | 'collected' | 'collected-and-trimmed';

const DEFAULTS: CollectorOptions = {
  intervalMs: 3_000,
  idleCpuShare: 0.01,
  growthBytes: 8 * 1024 * 1024,
  trimDelayMs: 1_000,
  giveBackAfterMs: 6_000,
  plainTries: 2,
  afterStart: false,
};

export class IdleCollector {
  /** Full collections run so far. */
  collections = 0;
  /** C-heap trims run so far. */
  trims = 0;
  private readonly probes: CollectorProbes;
  private readonly opts: CollectorOptions;
  private lastCpuMs: number;
  private liveBytes: number;
  private settledRssBytes: number;
  /** The last collection kept the grown heap: when it ran, and how many in a row did. */
  private kept: { atMs: number; tries: number } | null = null;
  /** A sequence is under way: looks meanwhile do nothing. */
  private working = false;
  /**
   * A sequence is owed, grown or not: the after-start one has not run yet, or the last one stopped
   * early for a request. Growth alone would not bring the latter back: where the sequence before
   * settled can be above the current size (it had kept the grown heap, this one gave it back and
   * was cut off before the trim), and the daemon then rested 15 MB above its settled size with
   * nothing due (seen in the bench).
   */
  private owed: boolean;

  constructor(probes: CollectorProbes, opts: Partial<CollectorOptions> = {}) {
    this.probes = probes;
    this.opts = { ...DEFAULTS, ...opts };
    this.lastCpuMs = probes.cpuMs();
    this.liveBytes = probes.heapUsedBytes();
    this.settledRssBytes = probes.rssBytes();
    this.owed = this.opts.afterStart;
  }

  /** One look, and the sequence if it is due; what it did. The timer calls it; tests call it directly. */
  async check(): Promise<CollectorOutcome> {
    if (this.working) return 'nothing';
    const cpu = this.probes.cpuMs();
    const idle = cpu - this.lastCpuMs <= this.opts.intervalMs * this.opts.idleCpuShare && this.probes.requestsInFlight() === 0;
    this.lastCpuMs = cpu;
    if (!idle) return 'nothing';
    const heapGrowth = this.probes.heapUsedBytes() - this.liveBytes;
    const rssGrowth = this.probes.rssBytes() - this.settledRssBytes;
    const grown = heapGrowth >= this.opts.growthBytes || rssGrowth >= this.opts.growthBytes;
    const giveBackDue = this.kept !== null && this.probes.nowMs() - this.kept.atMs >= this.opts.giveBackAfterMs;
    if (!grown && !giveBackDue && !this.owed) return 'nothing';
    this.working = true;
    this.owed = true; // until the sequence gets to its end
    try {
      this.collect(giveBackDue);
      if ((await this.probes.shed()) > 0) {
        // a request that came in meanwhile would wait for the collection: leave it to a later look
        if (this.probes.requestsInFlight() > 0) return 'collected';
        this.collect(false); // the closed connections' sockets and buffers
      }
      let outcome: CollectorOutcome = 'collected';
      if (this.probes.trim) {
        await delay(this.opts.trimDelayMs, undefined, { ref: false });
        // the trim walks glibc's free pages (a few ms): not under a request that came in meanwhile;
        // the sequence stays owed and a later idle look runs it again
        if (this.probes.requestsInFlight() > 0) return 'collected';
        this.probes.trim();
        this.trims++;
        outcome = 'collected-and-trimmed';
      }
      this.settledRssBytes = this.probes.rssBytes();
      this.owed = false;
      return outcome;
    } finally {
      // its own work's CPU time must not make the next look see a busy daemon
      this.lastCpuMs = this.probes.cpuMs();
      this.working = false;
    }
  }

  /**
   * One full collection. `quiet`: seconds without allocation came before it, so a plain one should
   * have given the heap back; after `plainTries` of those that did not, it is forced.
   */
  private collect(quiet: boolean): void {
    const tries = this.kept?.tries ?? 0;
    const gaveBack = this.probes.gc(quiet && tries >= this.opts.plainTries);
    this.collections++;
    this.liveBytes = this.probes.heapUsedBytes();
    // V8 measures from its last collection: a later try waits for a quiet spell after this one
    this.kept = gaveBack ? null : { atMs: this.probes.nowMs(), tries: tries + (quiet ? 1 : 0) };
  }

  /** Look every `intervalMs` until the returned function is called; never keeps the process up. */
  start(): () => void {
    const timer = setInterval(() => {
      // the steps do not throw; a rejection here must still never become an unhandled one
      this.check().catch(() => undefined);
    }, this.opts.intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/**
 * The collector over this process, given what it sheds, the full collection and the C-heap trim.
 * The daemon runs it with the defaults and the after-start sequence.
 */
export function processIdleCollector(
  shed: () => Promise<number>,
  gc: (force: boolean) => boolean,
  trim: MallocTrim | null,
  requestsInFlight: () => number,
  opts: Partial<CollectorOptions> = {},
): IdleCollector {
  return new IdleCollector(
    {
      shed,
      gc,
      trim,
      requestsInFlight,
      cpuMs: () => {
        const u = process.cpuUsage();
        return (u.user + u.system) / 1000;
      },
      nowMs: () => performance.now(),
      heapUsedBytes: () => getHeapStatistics().used_heap_size,
      rssBytes: () => process.memoryUsage.rss(),
    },
    { afterStart: true, ...opts },
  );
}
