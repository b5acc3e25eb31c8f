/**
 * The idle collector gives a burst's heap back on every Node major users run, not only the one
 * running the suite: how V8 releases freed pages differs between them (reduce-heap.ts; Node 22
 * and 24 pool them until a memory-reducing collection, which a plain one is not). A fixture bursts
 * and lets the real collector and reduceHeap work, under this Node and under each binary
 * `scripts/fetch-node-versions.cjs` put in .cache/node-versions (CI fetches them and sets
 * REQUIRE_NODE_VERSIONS=1, which turns their absence into a failure).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('../fixtures/heap-give-back.mjs', import.meta.url));
const cache = fileURLToPath(new URL('../../.cache/node-versions/', import.meta.url));

const others = existsSync(cache)
  ? readdirSync(cache)
      .filter((major) => /^\d+$/.test(major))
      .map((major) => ({ name: `node ${major} (.cache/node-versions)`, binary: `${cache}${major}/bin/node` }))
      .filter((n) => existsSync(n.binary))
  : [];
const required = process.env.REQUIRE_NODE_VERSIONS === '1';
const runtimes = [{ name: `this node (${process.version})`, binary: process.execPath }, ...others];

interface Seen {
  node: string;
  poolsFreedPages: boolean;
  beforeMb: number;
  peakMb: number;
  afterMb: number;
  collections: number;
  outcomes: string[];
}

describe('heap given back after a burst', () => {
  it('finds the other Node majors when they are required', () => {
    if (!required) console.log(`other Node majors: ${others.length ? others.map((n) => n.name).join(', ') : 'none fetched (npm run fetch-node-versions)'}`);
    if (required) expect(others.map((n) => n.name).sort()).toEqual(['node 22 (.cache/node-versions)', 'node 24 (.cache/node-versions)']);
  });

  it.each(runtimes)('under $name', async ({ binary }) => {
    // the daemon runs with one malloc arena on Linux (malloc-env.ts); without it, glibc's per-thread
    // arenas keep what V8's GC threads used, which is not what this test is about
    const { stdout } = await run(binary, [fixture], { encoding: 'utf8', timeout: 40_000, env: { ...process.env, MALLOC_ARENA_MAX: '1' } });
    const seen = JSON.parse(stdout) as Seen;
    const summary = `${seen.node}: RSS ${seen.beforeMb.toFixed(1)} MB before, ${seen.peakMb.toFixed(1)} at peak, ${seen.afterMb.toFixed(1)} after ${seen.outcomes.join(', ')}`;
    expect(seen.peakMb - seen.beforeMb, summary).toBeGreaterThan(50); // the burst did grow it
    expect(seen.collections, summary).toBeGreaterThan(0);
    // alone 4-6 MB above; pooled pages kept (Node 22 before the memory-reducing path): ~105
    expect(seen.afterMb - seen.beforeMb, summary).toBeLessThanOrEqual(25);
    // where freed pages are pooled only the memory-reducing collection releases them
    if (seen.poolsFreedPages) expect(seen.outcomes, summary).toEqual(['memory-reducing']);
  }, 45_000);
});
