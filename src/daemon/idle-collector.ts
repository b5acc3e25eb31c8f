/**
 * Hands back the garbage a burst of traffic leaves behind. V8 collects when a program allocates,
 * and an idle daemon hardly allocates: after 1,000 concurrent streams the heap held 75 MB of
 * which 18 MB was live, and 30 s of idleness collected none of it. So every few seconds this
 * looks at the process: when it used almost no CPU since the last look (idle) and the heap has
 * grown well past what was live after the last collection, it runs one full collection — when
 * no request is waiting for it. V8's collection function comes from v8-settings.ts.
 */
import { getHeapStatistics } from 'node:v8';

export interface CollectorProbes {
  gc(): void;
  /** CPU time the process has used so far, in ms. */
  cpuMs(): number;
  heapUsedBytes(): number;
}

export interface CollectorOptions {
  /** How often to look (default 5 s). */
  intervalMs: number;
  /** Idle: at most this share of one core used since the last look (default 1%). */
  idleCpuShare: number;
  /** Collect when the heap holds this much more than after the last collection (default 16 MB). */
  garbageBytes: number;
}

const DEFAULTS: CollectorOptions = { intervalMs: 5_000, idleCpuShare: 0.01, garbageBytes: 16 * 1024 * 1024 };

export class IdleCollector {
  /** Full collections run so far. */
  collections = 0;
  private readonly probes: CollectorProbes;
  private readonly opts: CollectorOptions;
  private lastCpuMs: number;
  private liveBytes: number;

  constructor(probes: CollectorProbes, opts: Partial<CollectorOptions> = {}) {
    this.probes = probes;
    this.opts = { ...DEFAULTS, ...opts };
    this.lastCpuMs = probes.cpuMs();
    this.liveBytes = probes.heapUsedBytes();
  }

  /** One look; true when it collected. The timer calls it; tests call it directly. */
  check(): boolean {
    const cpu = this.probes.cpuMs();
    const busy = cpu - this.lastCpuMs > this.opts.intervalMs * this.opts.idleCpuShare;
    this.lastCpuMs = cpu;
    if (busy || this.probes.heapUsedBytes() - this.liveBytes < this.opts.garbageBytes) return false;
    this.probes.gc();
    this.collections++;
    this.liveBytes = this.probes.heapUsedBytes();
    // the collection's own CPU time must not make the next look see a busy daemon
    this.lastCpuMs = this.probes.cpuMs();
    return true;
  }

  /** Look every `intervalMs` until the returned function is called; never keeps the process up. */
  start(): () => void {
    const timer = setInterval(() => this.check(), this.opts.intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

/** The collector over this process, given V8's full-collection function. */
export function processIdleCollector(gc: () => void): IdleCollector {
  return new IdleCollector({
    gc,
    cpuMs: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    },
    heapUsedBytes: () => getHeapStatistics().used_heap_size,
  });
}
