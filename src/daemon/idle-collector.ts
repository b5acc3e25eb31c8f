/**
 * Hands back the memory a burst of traffic leaves behind. V8 collects when a program allocates,
 * and an idle daemon hardly allocates: after 1,000 concurrent streams the heap held 75 MB of
 * which 18 MB was live, and 30 s of idleness collected none of it. glibc, in turn, keeps the
 * socket buffers and ArrayBuffer stores freed by a collection: ~60 MB of free pages inside its
 * arena, which free() never returns.
 *
 * So every few seconds this looks at the process. When it used almost no CPU since the last look
 * (idle) and has grown well past where it settled last time — more heap than was live after the
 * last collection, or more resident memory — it closes the upstream connections a burst left
 * open, and at the next idle look (they close asynchronously) runs one full, memory-reducing
 * collection (reduce-heap.ts). At the look after that it trims the C heap (malloc-trim.ts): V8
 * frees ArrayBuffer stores on a background thread after a collection, so a trim right after it
 * would find them still in use.
 */
import { getHeapStatistics } from 'node:v8';
import type { MallocTrim } from './malloc-trim.js';

export interface CollectorProbes {
  /**
   * Let go of what a burst left outside the heap (idle upstream connections); how many things it
   * let go. They close asynchronously, so the collection waits for the next idle look.
   */
  shed(): number;
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
}

const DEFAULTS: CollectorOptions = { intervalMs: 5_000, idleCpuShare: 0.01, growthBytes: 16 * 1024 * 1024 };

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
  /** What the next idle look does, when a step of the last one is still to come. */
  private next: 'collect' | 'trim' | null = null;

  constructor(probes: CollectorProbes, opts: Partial<CollectorOptions> = {}) {
    this.probes = probes;
    this.opts = { ...DEFAULTS, ...opts };
    this.lastCpuMs = probes.cpuMs();
    this.liveBytes = probes.heapUsedBytes();
    this.settledRssBytes = probes.rssBytes();
  }

  /** One look; what it did. The timer calls it; tests call it directly. */
  check(): 'shed' | 'collected' | 'trimmed' | 'nothing' {
    const cpu = this.probes.cpuMs();
    const idle = cpu - this.lastCpuMs <= this.opts.intervalMs * this.opts.idleCpuShare;
    this.lastCpuMs = cpu;
    if (!idle) return 'nothing';
    if (this.next === 'collect') return this.collect();
    if (this.next === 'trim' && this.probes.trim) {
      this.next = null;
      this.probes.trim();
      this.trims++;
      this.settle();
      return 'trimmed';
    }
    const heapGrowth = this.probes.heapUsedBytes() - this.liveBytes;
    const rssGrowth = this.probes.rssBytes() - this.settledRssBytes;
    if (heapGrowth < this.opts.growthBytes && rssGrowth < this.opts.growthBytes) return 'nothing';
    if (this.probes.shed() === 0) return this.collect();
    this.next = 'collect';
    this.settle();
    return 'shed';
  }

  /** Look every `intervalMs` until the returned function is called; never keeps the process up. */
  start(): () => void {
    const timer = setInterval(() => this.check(), this.opts.intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private collect(): 'collected' {
    this.probes.gc();
    this.collections++;
    this.liveBytes = this.probes.heapUsedBytes();
    this.next = this.probes.trim ? 'trim' : null;
    this.settle();
    return 'collected';
  }

  private settle(): void {
    this.settledRssBytes = this.probes.rssBytes();
    // its own work's CPU time must not make the next look see a busy daemon
    this.lastCpuMs = this.probes.cpuMs();
  }
}

/** The collector over this process, given what it sheds, the full collection and the C-heap trim. */
export function processIdleCollector(shed: () => number, gc: () => void, trim: MallocTrim | null): IdleCollector {
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
