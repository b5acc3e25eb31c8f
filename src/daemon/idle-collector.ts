/**
 * Hands back the memory a burst of traffic leaves behind. V8 collects when a program allocates,
 * and an idle daemon hardly allocates: after 1,000 concurrent streams the heap held 75 MB of
 * which 18 MB was live, and 30 s of idleness collected none of it. glibc, in turn, keeps the
 * socket buffers and ArrayBuffer stores freed by a collection: ~60 MB of free pages inside its
 * arena, which free() never returns.
 *
 * So every few seconds this looks at the process. When it used almost no CPU since the last look
 * (idle) and has grown well past where it settled last time — more heap than was live after the
 * last collection, or more resident memory — it runs one sequence: close the upstream connections
 * a burst left open and wait until they are closed (their sockets and buffers become garbage), run
 * one full, memory-reducing collection (reduce-heap.ts), wait a moment — V8 frees ArrayBuffer
 * stores on a background thread after a collection — and trim the C heap (malloc-trim.ts).
 * Earlier each step waited for its own idle look; closing a thousand sockets alone made the next
 * look seem busy, so the trim came 15–25 s after the burst, and often after anyone was looking.
 */
import { getHeapStatistics } from 'node:v8';
import type { MallocTrim } from './malloc-trim.js';

export interface CollectorProbes {
  /**
   * Let go of what a burst left outside the heap (idle upstream connections); resolves once it is
   * gone, with how many things it let go.
   */
  shed(): Promise<number>;
  gc(): void;
  /** glibc's malloc_trim, or null where the native helper is not built. */
  trim: MallocTrim | null;
  /** CPU time the process has used so far, in ms. */
  cpuMs(): number;
  heapUsedBytes(): number;
  rssBytes(): number;
}

export interface CollectorOptions {
  /** How often to look (default 5 s). */
  intervalMs: number;
  /** Idle: at most this share of one core used since the last look (default 1%). */
  idleCpuShare: number;
  /** Collect when heap or RSS is this much above where it settled last time (default 16 MB). */
  growthBytes: number;
  /** Wait between the collection and the trim, for V8's background freeing (default 1 s). */
  trimDelayMs: number;
}

/** What one look did. */
export type CollectorOutcome = 'nothing' | 'collected' | 'collected-and-trimmed';

const DEFAULTS: CollectorOptions = {
  intervalMs: 5_000,
  idleCpuShare: 0.01,
  growthBytes: 16 * 1024 * 1024,
  trimDelayMs: 1_000,
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
  /** A sequence is under way: looks meanwhile do nothing. */
  private working = false;

  constructor(probes: CollectorProbes, opts: Partial<CollectorOptions> = {}) {
    this.probes = probes;
    this.opts = { ...DEFAULTS, ...opts };
    this.lastCpuMs = probes.cpuMs();
    this.liveBytes = probes.heapUsedBytes();
    this.settledRssBytes = probes.rssBytes();
  }

  /** One look, and the sequence if it is due; what it did. The timer calls it; tests call it directly. */
  async check(): Promise<CollectorOutcome> {
    if (this.working) return 'nothing';
    const cpu = this.probes.cpuMs();
    const idle = cpu - this.lastCpuMs <= this.opts.intervalMs * this.opts.idleCpuShare;
    this.lastCpuMs = cpu;
    if (!idle) return 'nothing';
    const heapGrowth = this.probes.heapUsedBytes() - this.liveBytes;
    const rssGrowth = this.probes.rssBytes() - this.settledRssBytes;
    if (heapGrowth < this.opts.growthBytes && rssGrowth < this.opts.growthBytes) return 'nothing';
    this.working = true;
    try {
      await this.probes.shed();
      this.probes.gc();
      this.collections++;
      this.liveBytes = this.probes.heapUsedBytes();
      let outcome: CollectorOutcome = 'collected';
      if (this.probes.trim) {
        await delay(this.opts.trimDelayMs);
        this.probes.trim();
        this.trims++;
        outcome = 'collected-and-trimmed';
      }
      this.settledRssBytes = this.probes.rssBytes();
      return outcome;
    } finally {
      // its own work's CPU time must not make the next look see a busy daemon
      this.lastCpuMs = this.probes.cpuMs();
      this.working = false;
    }
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** The collector over this process, given what it sheds, the full collection and the C-heap trim. */
export function processIdleCollector(shed: () => Promise<number>, gc: () => void, trim: MallocTrim | null): IdleCollector {
  return new IdleCollector({
    shed,
    gc,
    trim,
    cpuMs: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    },
    heapUsedBytes: () => getHeapStatistics().used_heap_size,
    rssBytes: () => process.memoryUsage.rss(),
  });
}
