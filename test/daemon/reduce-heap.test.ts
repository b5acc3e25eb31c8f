/**
 * reduceHeap(): after a burst of allocation it collects the garbage and shrinks the grown young
 * generation — on Node 20 with a plain full collection after a quiet spell (in a child process
 * that nothing else allocates in, run from the source) or, forced, the memory-reducing one
 * (v8.queryObjects); on Node 22+ with the memory-reducing one every time — and compacts
 * old-generation pages left half full, without --expose-gc on the command line, a `gc` in the
 * global scope, or an ExperimentalWarning. heap-give-back.test.ts runs it under each Node major.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { POOLS_FREED_PAGES, reduceHeap, youngGenerationBytes } from '../../src/daemon/reduce-heap.js';

const MB = 1024 * 1024;
const run = promisify(execFile);
const newSpace = youngGenerationBytes;
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;

// Node 20 only: on Node 22+ every collection is the memory-reducing one (skipped there, by name)
const node20Path = it.runIf(!POOLS_FREED_PAGES);
const onNode22Plus = POOLS_FREED_PAGES ? ' [Node 22+: skipped, no plain collections there]' : '';

let sink: unknown[] = [];
function burst(): void {
  // short-lived objects with some survivors, as streams leave them: grows the young generation
  for (let round = 0; round < 30; round++) {
    const batch: unknown[] = [];
    for (let i = 0; i < 50_000; i++) batch.push({ i, s: `chunk ${round}/${i}`, n: [i, round] });
    sink.push(batch[round]);
  }
}

describe('reduceHeap', () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  afterEach(() => {
    process.off('warning', onWarning);
    sink = [];
  });

  it('right after a burst, forced: the memory-reducing collection gives back the grown young generation', () => {
    process.on('warning', onWarning);
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `item ${i}` }));
    burst();
    const before = getHeapStatistics();
    const youngBefore = newSpace();
    expect((garbage as unknown[]).length).toBe(200_000);
    garbage = null;
    // Node 20: a plain collection keeps it while allocation is fast; Node 22+: memory-reducing at once
    expect(reduceHeap(true)).toBe('memory-reducing');
    const after = getHeapStatistics();
    expect(garbage).toBeNull();
    expect(after.used_heap_size).toBeLessThan(before.used_heap_size - 5 * MB);
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size);
    expect(youngBefore).toBeGreaterThan(4 * MB);
    expect(newSpace()).toBeLessThan(youngBefore / 2);
  });

  node20Path(`right after a burst, not forced: a plain collection that says it kept the young generation${onNode22Plus}`, () => {
    burst();
    expect(newSpace()).toBeGreaterThan(4 * MB);
    expect(reduceHeap(false)).toBe('full-young-kept');
    expect(newSpace()).toBeGreaterThan(4 * MB);
  });

  node20Path(`a plain collection 5.5 quiet seconds after the one that counted the burst gives it back${onNode22Plus}`, async () => {
    const child = fileURLToPath(new URL('../fixtures/reduce-heap-after-idle.ts', import.meta.url));
    const { stdout } = await run(process.execPath, ['--import', 'tsx', child], { encoding: 'utf8', timeout: 20_000 });
    const out = JSON.parse(stdout) as { youngBefore: number; first: string; result: string; youngAfter: number; globalGc: string };
    expect(out.youngBefore).toBeGreaterThan(4 * MB);
    expect(['full', 'full-young-kept']).toContain(out.first); // depends on how much of the burst came after its last collection
    expect(out.result).toBe('full');
    expect(out.youngAfter).toBeLessThanOrEqual(4 * MB);
    expect(out.globalGc).toBe('undefined'); // taken from a vm context of its own
  }, 25_000);

  it('compacts the old generation: pages a burst left half full are given back', () => {
    // ~50 MB of old-generation objects (two collections promote them), then every other one dropped
    let kept: unknown[] = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `x${i}`, a: [i] }));
    reduceHeap(false);
    reduceHeap(false);
    const filled = oldSpace().physical_space_size;
    expect(filled).toBeGreaterThan(40 * MB);
    kept = kept.filter((_, i) => i % 2 === 0);
    reduceHeap(false);
    const after = oldSpace();
    // V8 on its own evacuates only mostly-empty pages: a plain collection keeps all ~50 MB
    expect(after.physical_space_size).toBeLessThan(filled - 15 * MB);
    expect(after.physical_space_size - after.space_used_size).toBeLessThan(4 * MB);
    expect(kept.length).toBe(200_000);
  });

  it('swallows only its own ExperimentalWarning and puts process.emitWarning back', async () => {
    const original = process.emitWarning;
    process.on('warning', onWarning);
    burst();
    expect(reduceHeap(true)).toBe('memory-reducing');
    expect(process.emitWarning).toBe(original);
    process.emitWarning('something else', 'ExperimentalWarning');
    await new Promise((r) => setImmediate(r));
    expect(warnings).toEqual(['ExperimentalWarning: something else']);
  });
});
