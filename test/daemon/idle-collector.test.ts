/**
 * The idle collector acts only when the daemon is idle and has grown (heap or resident memory):
 * then, in one sequence, it sheds a burst's upstream connections and waits until they have
 * closed, runs a full collection, and trims the C heap a moment later.
 */
import { describe, expect, it } from 'vitest';
import { IdleCollector, type CollectorProbes } from '../../src/daemon/idle-collector.js';

const MB = 1024 * 1024;

/**
 * A process whose CPU clock, heap and RSS the test moves by hand: gc() drops the heap to `live`
 * and frees `freedByGc` of RSS; trim() hands back `freeCHeap`.
 */
function fakeProcess(withTrim = true) {
  const p = {
    cpu: 0,
    heap: 10 * MB,
    live: 10 * MB,
    rss: 60 * MB,
    freedByGc: 0,
    freeCHeap: 0,
    gcs: 0,
    trimCalls: 0,
    sheds: 0,
    /** idle upstream pools a burst left; shed() closes them */
    burstPools: 0,
    /** what happened, in order */
    steps: [] as string[],
    /** when set, shed() resolves only once the test calls it */
    holdShed: null as null | ((release: () => void) => void),
    shed: () => {
      p.sheds++;
      p.steps.push('shed');
      const closed = p.burstPools;
      p.burstPools = 0;
      const hold = p.holdShed;
      if (!hold) return Promise.resolve(closed);
      return new Promise<number>((resolve) => hold(() => resolve(closed)));
    },
    gc: () => {
      p.gcs++;
      p.steps.push('gc');
      p.rss -= p.heap - p.live;
      p.heap = p.live;
      p.cpu += 40; // a full collection costs CPU; the next look must not count it as traffic
    },
    trim: null as CollectorProbes['trim'],
    cpuMs: () => p.cpu,
    heapUsedBytes: () => p.heap,
    rssBytes: () => p.rss,
  };
  if (withTrim)
    p.trim = () => {
      p.trimCalls++;
      p.steps.push('trim');
      p.rss -= p.freeCHeap;
      p.freeCHeap = 0;
      p.cpu += 2;
      return true;
    };
  return p;
}

const opts = { intervalMs: 5_000, idleCpuShare: 0.01, growthBytes: 16 * MB, trimDelayMs: 0 };

describe('IdleCollector', () => {
  it('once idle after a burst it sheds, collects and trims in one look, then rests until the daemon grows anew', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.cpu += 3_000; // a burst: 3 s of CPU in one interval
    p.heap = 80 * MB;
    p.rss = 200 * MB;
    p.freeCHeap = 60 * MB;
    p.burstPools = 1;
    expect(await c.check()).toBe('nothing'); // busy: never collect while traffic flows
    expect(p.steps).toEqual([]);
    p.cpu += 10; // idle interval
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(p.steps).toEqual(['shed', 'gc', 'trim']);
    expect([p.heap, p.rss, c.collections, c.trims]).toEqual([10 * MB, 70 * MB, 1, 1]);
    p.cpu += 5;
    expect(await c.check()).toBe('nothing'); // settled: nothing more to do
    p.heap += 15 * MB;
    expect(await c.check()).toBe('nothing'); // under the growth threshold
    p.heap += 2 * MB;
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(c.collections).toBe(2);
  });

  it("collects only once the shed connections have closed, and a look meanwhile starts nothing", async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 60 * MB;
    p.rss = 200 * MB;
    p.burstPools = 1;
    let release: () => void = () => undefined;
    p.holdShed = (r) => (release = r);
    const first = c.check();
    await new Promise((r) => setTimeout(r, 5));
    expect(p.steps).toEqual(['shed']); // the sockets are still closing: their buffers are not garbage yet
    expect(await c.check()).toBe('nothing'); // the next timer tick does not start a second sequence
    release();
    expect(await first).toBe('collected-and-trimmed');
    expect(p.steps).toEqual(['shed', 'gc', 'trim']);
  });

  it('trims a moment after the collection, for V8 frees ArrayBuffer stores on a background thread', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, trimDelayMs: 40 });
    p.heap = 50 * MB;
    const at: Record<string, number> = {};
    const { gc, trim } = p;
    p.gc = () => ((at.gc = performance.now()), gc());
    p.trim = () => ((at.trim = performance.now()), trim?.() ?? true);
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(at.trim - at.gc).toBeGreaterThanOrEqual(35);
  });

  it('collects when resident memory grew though the heap did not (garbage freed by V8 but kept by glibc)', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 20 * MB; // V8 already collected on its own: 10 MB over the last live size
    p.live = 20 * MB;
    p.rss = 200 * MB;
    p.freeCHeap = 120 * MB;
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(p.rss).toBe(80 * MB);
    expect(await c.check()).toBe('nothing'); // the new settled RSS is the baseline
  });

  it('measures growth from where it settled, so a larger live set or a larger resident floor is not collected over and over', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.live = 60 * MB; // e.g. the request log's ring filled up
    p.heap = 90 * MB;
    p.rss = 150 * MB; // and glibc could not give any of it back
    expect(await c.check()).toBe('collected-and-trimmed');
    p.heap = 70 * MB;
    for (let i = 0; i < 5; i++) expect(await c.check()).toBe('nothing');
    expect([p.gcs, p.trimCalls]).toEqual([1, 1]);
  });

  it("does not count its own work's CPU time as traffic at the next look", async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 50 * MB;
    expect(await c.check()).toBe('collected-and-trimmed'); // the collection used 40 ms, the trim 2
    p.heap += 20 * MB;
    p.cpu += 5;
    expect(await c.check()).toBe('collected-and-trimmed');
  });

  it('without the native helper it only collects, and counts no trims', async () => {
    const p = fakeProcess(false);
    const c = new IdleCollector(p, opts);
    p.heap = 50 * MB;
    p.rss = 150 * MB;
    expect(await c.check()).toBe('collected');
    expect(await c.check()).toBe('nothing');
    expect([p.gcs, c.trims]).toEqual([1, 0]);
  });

  it('an idle daemon that has not grown is left alone; a steady trickle of traffic counts as busy', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    for (let i = 0; i < 10; i++) {
      p.cpu += 2;
      p.rss += MB; // slow drift under the threshold
      expect(await c.check()).toBe('nothing');
    }
    p.heap = 50 * MB;
    p.cpu += 51; // just over 1% of 5 s
    expect(await c.check()).toBe('nothing');
    expect([p.sheds, p.gcs]).toEqual([0, 0]);
  });

  it('start() looks on a timer that does not hold the process open, and its stop function ends it', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, intervalMs: 10 });
    p.heap = 50 * MB;
    const stop = c.start();
    await new Promise((r) => setTimeout(r, 60));
    stop();
    expect([p.gcs, p.trimCalls]).toEqual([1, 1]);
    p.heap = 50 * MB;
    await new Promise((r) => setTimeout(r, 40));
    expect(p.gcs).toBe(1);
  });
});
