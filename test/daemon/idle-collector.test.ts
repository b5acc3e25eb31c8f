/**
 * The idle collector acts only when the daemon is idle and has grown (heap or resident memory):
 * it sheds a burst's upstream connections, collects at the next idle look, trims the C heap at
 * the one after.
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
    shed: () => {
      p.sheds++;
      const closed = p.burstPools;
      p.burstPools = 0;
      return closed;
    },
    gc: () => {
      p.gcs++;
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
      p.rss -= p.freeCHeap;
      p.freeCHeap = 0;
      p.cpu += 2;
      return true;
    };
  return p;
}

const opts = { intervalMs: 5_000, idleCpuShare: 0.01, growthBytes: 16 * MB };

describe('IdleCollector', () => {
  it('collects once the daemon is idle after a burst, trims at the next idle look, then rests until it grows anew', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.cpu += 3_000; // a burst: 3 s of CPU in one interval
    p.heap = 80 * MB;
    p.rss = 200 * MB;
    p.freeCHeap = 60 * MB;
    expect(c.check()).toBe('nothing'); // busy: never collect while traffic flows
    p.cpu += 10; // idle interval
    expect(c.check()).toBe('collected');
    expect([p.sheds, p.gcs, p.heap, p.rss, c.collections, p.trimCalls]).toEqual([1, 1, 10 * MB, 130 * MB, 1, 0]);
    p.cpu += 5;
    expect(c.check()).toBe('trimmed'); // its own collection did not look like traffic
    expect([p.rss, c.trims]).toEqual([70 * MB, 1]);
    p.cpu += 5;
    expect(c.check()).toBe('nothing'); // settled: nothing more to do
    p.heap += 15 * MB;
    expect(c.check()).toBe('nothing'); // under the growth threshold
    p.heap += 2 * MB;
    expect(c.check()).toBe('collected');
    expect(c.collections).toBe(2);
  });

  it('sheds a burst\'s upstream connections first and collects at the next idle look, once they have closed', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 60 * MB;
    p.rss = 200 * MB;
    p.burstPools = 1;
    expect(c.check()).toBe('shed');
    expect([p.sheds, p.gcs]).toEqual([1, 0]);
    p.cpu += 1_000; // traffic came back: the collection waits for idleness
    expect(c.check()).toBe('nothing');
    expect(c.check()).toBe('collected');
    expect(c.check()).toBe('trimmed');
    expect(c.check()).toBe('nothing');
    expect([p.sheds, p.gcs, p.trimCalls]).toEqual([1, 1, 1]);
  });

  it('collects when resident memory grew though the heap did not (garbage freed by V8 but kept by glibc)', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 20 * MB; // V8 already collected on its own: 10 MB over the last live size
    p.live = 20 * MB;
    p.rss = 200 * MB;
    p.freeCHeap = 120 * MB;
    expect(c.check()).toBe('collected');
    expect(c.check()).toBe('trimmed');
    expect(p.rss).toBe(80 * MB);
    expect(c.check()).toBe('nothing'); // the new settled RSS is the baseline
  });

  it('measures growth from where it settled, so a larger live set or a larger resident floor is not collected over and over', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.live = 60 * MB; // e.g. the request log's ring filled up
    p.heap = 90 * MB;
    p.rss = 150 * MB; // and glibc could not give any of it back
    expect(c.check()).toBe('collected');
    expect(c.check()).toBe('trimmed');
    p.heap = 70 * MB;
    for (let i = 0; i < 5; i++) expect(c.check()).toBe('nothing');
    expect([p.gcs, p.trimCalls]).toEqual([1, 1]);
  });

  it('waits for an idle look to trim: traffic between the collection and the trim defers it', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    p.heap = 50 * MB;
    expect(c.check()).toBe('collected');
    p.cpu += 1_000;
    expect(c.check()).toBe('nothing');
    expect(p.trimCalls).toBe(0);
    p.cpu += 1;
    expect(c.check()).toBe('trimmed');
  });

  it('without the native helper it only collects, and counts no trims', () => {
    const p = fakeProcess(false);
    const c = new IdleCollector(p, opts);
    p.heap = 50 * MB;
    p.rss = 150 * MB;
    expect(c.check()).toBe('collected');
    expect(c.check()).toBe('nothing');
    expect([p.gcs, c.trims]).toEqual([1, 0]);
  });

  it('an idle daemon that has not grown is left alone; a steady trickle of traffic counts as busy', () => {
    const p = fakeProcess();
    const c = new IdleCollector(p, opts);
    for (let i = 0; i < 10; i++) {
      p.cpu += 2;
      p.rss += MB; // slow drift under the threshold
      expect(c.check()).toBe('nothing');
    }
    p.heap = 50 * MB;
    p.cpu += 51; // just over 1% of 5 s
    expect(c.check()).toBe('nothing');
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
