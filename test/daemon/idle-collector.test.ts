/** The idle collector runs a full collection only when the daemon is idle and holds garbage. */
import { describe, expect, it } from 'vitest';
import { IdleCollector, type CollectorProbes } from '../../src/daemon/idle-collector.js';

const MB = 1024 * 1024;

/** A process whose CPU clock and heap the test moves by hand; gc() drops the heap to `live`. */
function fakeProcess(): CollectorProbes & { cpu: number; heap: number; live: number; gcs: number } {
  const p = {
    cpu: 0,
    heap: 10 * MB,
    live: 10 * MB,
    gcs: 0,
    gc: () => {
      p.gcs++;
      p.heap = p.live;
      p.cpu += 40; // a full collection costs CPU; the next look must not count it as traffic
    },
    cpuMs: () => p.cpu,
    heapUsedBytes: () => p.heap,
  };
  return p;
}

describe('IdleCollector', () => {
  const opts = { intervalMs: 5_000, idleCpuShare: 0.01, garbageBytes: 16 * MB };

  it('collects once the daemon is idle after a burst, then not again until garbage builds up anew', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.cpu += 3_000; // a burst: 3 s of CPU in one interval
    p.heap = 80 * MB;
    expect(c.check()).toBe(false); // busy: never collect while traffic flows
    p.cpu += 10; // idle interval
    expect(c.check()).toBe(true);
    expect([p.gcs, p.heap, c.collections]).toEqual([1, 10 * MB, 1]);
    p.cpu += 5;
    expect(c.check()).toBe(false); // its own collection did not look like traffic; nothing to collect
    p.heap += 15 * MB;
    expect(c.check()).toBe(false); // under the garbage threshold
    p.heap += 2 * MB;
    expect(c.check()).toBe(true);
    expect(c.collections).toBe(2);
  });

  it('measures garbage from what was live after the last collection, so a larger live set is not collected over and over', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.live = 60 * MB; // e.g. the request log's ring filled up
    p.heap = 90 * MB;
    expect(c.check()).toBe(true);
    p.heap = 70 * MB;
    expect(c.check()).toBe(false);
    expect(p.gcs).toBe(1);
  });

  it('an idle daemon without garbage is left alone; a steady trickle of traffic counts as busy', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    for (let i = 0; i < 10; i++) {
      p.cpu += 2;
      expect(c.check()).toBe(false);
    }
    p.heap = 50 * MB;
    p.cpu += 51; // just over 1% of 5 s
    expect(c.check()).toBe(false);
    expect(p.gcs).toBe(0);
  });

  it('start() looks on a timer that does not hold the process open, and its stop function ends it', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, intervalMs: 10 });
    p.heap = 50 * MB;
    const stop = c.start();
    await new Promise((r) => setTimeout(r, 60));
    stop();
    const after = p.gcs;
    expect(after).toBe(1);
    p.heap = 50 * MB;
    await new Promise((r) => setTimeout(r, 40));
    expect(p.gcs).toBe(after);
  });
});
