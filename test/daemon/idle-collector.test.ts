/**
 * The idle collector acts only when the daemon is idle (almost no CPU, no request in flight) and
 * has grown (heap or resident memory): then, in one sequence, it collects, sheds a burst's
 * upstream connections and, once they have closed, collects again, and trims the C heap a moment
 * later. When a collection kept the grown heap (V8 gives it back only after a quiet spell), the
 * sequence runs again at an idle look a few seconds on; after repeated tries it is forced.
 */
import { describe, expect, it, vi } from 'vitest';
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
    /** whether a plain collection gives the grown heap back (V8: only after a quiet spell) */
    givesBack: true,
    /** 'forced-gc' for a collection that must give the grown heap back, 'gc' for a plain one */
    gc: (force: boolean): boolean => {
      p.gcs++;
      p.steps.push(force ? 'forced-gc' : 'gc');
      p.rss -= p.heap - p.live;
      p.heap = p.live;
      p.cpu += 40; // a full collection costs CPU; the next look must not count it as traffic
      return force || p.givesBack;
    },
    trim: null as CollectorProbes['trim'],
    cpuMs: () => p.cpu,
    now: 0,
    nowMs: () => p.now,
    /** requests the daemon is answering */
    inFlight: 0,
    requestsInFlight: () => p.inFlight,
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

const opts = { intervalMs: 5_000, idleCpuShare: 0.01, growthBytes: 16 * MB, trimDelayMs: 0, giveBackAfterMs: 6_000, plainTries: 2 };

/** A grown daemon whose sequence has started and waits for the connections it shed to close. */
async function sequenceWaitingOnShed() {
  const p = fakeProcess();
  const c = new IdleCollector(p, opts);
  p.heap = 60 * MB;
  p.rss = 200 * MB;
  p.burstPools = 1;
  let closed: () => void = () => undefined;
  p.holdShed = (r) => (closed = r);
  const first = c.check();
  await new Promise((r) => setTimeout(r, 5));
  return { p, c, first, release: () => closed() };
}

describe('IdleCollector', () => {
  it('once idle after a burst it collects, sheds, collects and trims in one look, then rests until the daemon grows anew', async () => {
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
    expect(p.steps).toEqual(['gc', 'shed', 'gc', 'trim']);
    expect([p.heap, p.rss, c.collections, c.trims]).toEqual([10 * MB, 70 * MB, 2, 1]);
    p.cpu += 5;
    expect(await c.check()).toBe('nothing'); // settled: nothing more to do
    p.heap += 15 * MB;
    expect(await c.check()).toBe('nothing'); // under the growth threshold
    p.heap += 2 * MB;
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(p.steps.slice(4)).toEqual(['gc', 'shed', 'trim']); // nothing shed: no second collection
    expect(c.collections).toBe(3);
  });

  it('with afterStart, the first idle look runs the sequence once though nothing grew; later looks rest', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, afterStart: true });
    p.cpu += 200; // still starting
    expect(await c.check()).toBe('nothing');
    p.cpu += 10;
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(p.steps).toEqual(['gc', 'shed', 'trim']);
    p.cpu += 10;
    expect(await c.check()).toBe('nothing');
    expect(c.collections).toBe(1);
    // without it, an ungrown daemon is left alone
    const q = fakeProcess();
    const d = new IdleCollector(q, opts);
    expect(await d.check()).toBe('nothing');
    expect(q.steps).toEqual([]);
  });

  it('when a collection kept the grown heap, runs again at the first idle look after a quiet spell, and forces it after two more', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.givesBack = false; // the burst's tail counts against the allocation rate
    p.heap = 80 * MB;
    expect(await c.check()).toBe('collected-and-trimmed');
    p.now += 3_000;
    expect(await c.check()).toBe('nothing'); // V8 would still count the last collection's window
    p.now += 3_000;
    p.cpu += 100; // busy
    expect(await c.check()).toBe('nothing');
    p.now += 3_000;
    expect(await c.check()).toBe('collected-and-trimmed'); // quiet: a plain try
    p.now += 6_000;
    expect(await c.check()).toBe('collected-and-trimmed'); // kept again: a second plain try
    p.now += 6_000;
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(p.steps).toEqual(['gc', 'shed', 'trim', 'gc', 'shed', 'trim', 'gc', 'shed', 'trim', 'forced-gc', 'shed', 'trim']);
    p.now += 60_000;
    expect(await c.check()).toBe('nothing'); // given back: done
  });

  it('a quiet plain collection that gives the heap back ends it there', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.givesBack = false;
    p.heap = 80 * MB;
    expect(await c.check()).toBe('collected-and-trimmed');
    p.givesBack = true;
    p.now += 6_000;
    expect(await c.check()).toBe('collected-and-trimmed');
    p.now += 60_000;
    expect(await c.check()).toBe('nothing');
    expect(p.steps).toEqual(['gc', 'shed', 'trim', 'gc', 'shed', 'trim']);
  });

  it('the collection after closing connections is no try of its own', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.givesBack = false;
    p.heap = 80 * MB;
    p.burstPools = 1;
    expect(await c.check()).toBe('collected-and-trimmed');
    for (let i = 0; i < 2; i++) {
      p.now += 6_000;
      expect(await c.check()).toBe('collected-and-trimmed');
    }
    expect(p.steps.filter((s) => s.endsWith('gc'))).toEqual(['gc', 'gc', 'gc', 'gc']); // two quiet plain tries, not forced yet
  });

  it('collects the second time only once the shed connections have closed, and a look meanwhile starts nothing', async () => {
    const { p, c, first, release } = await sequenceWaitingOnShed();
    expect(p.steps).toEqual(['gc', 'shed']); // the sockets are still closing: their buffers are not garbage yet
    expect(await c.check()).toBe('nothing'); // the next timer tick does not start a second sequence
    release();
    expect(await first).toBe('collected-and-trimmed');
    expect(p.steps).toEqual(['gc', 'shed', 'gc', 'trim']);
  });

  it('never collects while a request is being answered, even a slow stream that uses almost no CPU', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 60 * MB;
    p.rss = 200 * MB;
    p.inFlight = 1;
    p.cpu += 3; // a stream trickling tokens: well under 1% of a core
    expect(await c.check()).toBe('nothing');
    expect(p.steps).toEqual([]);
    p.inFlight = 0;
    expect(await c.check()).toBe('collected-and-trimmed');
  });

  it('a request that arrives while the connections close puts the rest off to a later idle look', async () => {
    const { p, c, first, release } = await sequenceWaitingOnShed();
    p.inFlight = 1;
    release();
    expect(await first).toBe('collected');
    expect(p.steps).toEqual(['gc', 'shed']); // a second collection would have held that request up
    expect(c.collections).toBe(1);
    p.inFlight = 0;
    p.holdShed = null;
    expect(await c.check()).toBe('collected-and-trimmed'); // not settled yet: the next idle look finishes
    expect(p.steps).toEqual(['gc', 'shed', 'gc', 'shed', 'trim']);
  });

  it('leaves the trim to a later idle look when a request came in during the wait before it', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, trimDelayMs: 20 });
    p.heap = 60 * MB;
    p.rss = 200 * MB;
    p.freeCHeap = 100 * MB;
    const first = c.check();
    await new Promise((r) => setTimeout(r, 5));
    p.inFlight = 1;
    expect(await first).toBe('collected');
    expect(p.trimCalls).toBe(0);
    p.inFlight = 0;
    expect(await c.check()).toBe('collected-and-trimmed'); // RSS never settled: the next idle look finishes
    expect(p.trimCalls).toBe(1);
  });

  it('finishes a give-back cut off before its trim at the next idle look, though RSS is now below where the kept one settled', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, trimDelayMs: 20 });
    p.givesBack = false;
    p.heap = 60 * MB;
    p.rss = 200 * MB;
    expect(await c.check()).toBe('collected-and-trimmed'); // kept the grown heap: settled at 150
    p.now += opts.giveBackAfterMs;
    p.givesBack = true;
    p.freeCHeap = 80 * MB;
    const giveBack = c.check();
    await new Promise((r) => setTimeout(r, 5));
    p.inFlight = 1; // a request arrives during the wait before the trim
    expect(await giveBack).toBe('collected');
    p.inFlight = 0;
    p.rss = 130 * MB; // the young generation went back: below the 150 the kept collection settled at
    expect(await c.check()).toBe('collected-and-trimmed');
    expect(p.rss).toBe(50 * MB);
    expect(await c.check()).toBe('nothing');
    expect(p.trimCalls).toBe(2);
  });

  it('trims a moment after the collection, for V8 frees ArrayBuffer stores on a background thread', async () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, { ...opts, trimDelayMs: 40 });
    p.heap = 50 * MB;
    const at: Record<string, number> = {};
    const { gc, trim } = p;
    p.gc = (force: boolean) => ((at.gc = performance.now()), gc(force));
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
    await vi.waitFor(() => expect([p.gcs, p.trimCalls]).toEqual([1, 1]));
    stop();
    p.heap = 50 * MB;
    await new Promise((r) => setTimeout(r, 40));
    expect(p.gcs).toBe(1);
  });
});
