/**
 * reduceHeap(): V8's memory-reducing collection without --expose-gc. After a burst of allocation
 * it collects the garbage and shrinks the young generation that a plain collection keeps, and it
 * prints no ExperimentalWarning.
 */
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { reduceHeap } from '../../src/daemon/reduce-heap.js';

const MB = 1024 * 1024;
const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.physical_space_size ?? 0;

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

  it('collects garbage and gives back the grown young generation', () => {
    process.on('warning', onWarning);
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `item ${i}` }));
    burst();
    const before = getHeapStatistics();
    const youngBefore = newSpace();
    expect((garbage as unknown[]).length).toBe(200_000);
    garbage = null;
    reduceHeap();
    const after = getHeapStatistics();
    expect(garbage).toBeNull();
    expect(after.used_heap_size).toBeLessThan(before.used_heap_size - 5 * MB);
    expect(after.total_heap_size).toBeLessThan(before.total_heap_size);
    expect(youngBefore).toBeGreaterThan(4 * MB);
    expect(newSpace()).toBeLessThan(youngBefore / 2);
  });

  it('swallows only its own ExperimentalWarning and puts process.emitWarning back', async () => {
    const original = process.emitWarning;
    process.on('warning', onWarning);
    reduceHeap();
    expect(process.emitWarning).toBe(original);
    process.emitWarning('something else', 'ExperimentalWarning');
    await new Promise((r) => setImmediate(r));
    expect(warnings).toEqual(['ExperimentalWarning: something else']);
  });
});
