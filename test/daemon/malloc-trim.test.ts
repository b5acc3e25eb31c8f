/**
 * The native C-heap trim (native/malloc-trim.c, built by `npm install`): the daemon's loader
 * finds it, and it hands glibc's free pages back — a child process fragments its C heap
 * (test/fixtures/fragment-c-heap.cjs), collects, and trims.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadMallocTrim } from '../../src/daemon/malloc-trim.js';

const glibc = process.platform === 'linux' && Boolean((process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
const trim = loadMallocTrim();
// CI builds it (gcc is installed there); elsewhere a missing compiler at install is allowed.
const required = process.env.REQUIRE_NATIVE === '1';
const why = !glibc ? 'malloc_trim is glibc-only; the daemon runs without it here' : 'native/build/malloc-trim.node was not built (no C compiler at npm install); set REQUIRE_NATIVE=1 to fail instead';

describe('malloc trim helper', () => {
  it.runIf(required)('is built and loads on this glibc system (REQUIRE_NATIVE=1)', () => {
    expect(glibc).toBe(true);
    expect(trim).toBeTypeOf('function');
  });

  it.skipIf(!trim)(`hands a fragmented C heap's free pages back to the OS${trim ? '' : ` (skipped: ${why})`}`, () => {
    const helper = fileURLToPath(new URL('../../native/build/malloc-trim.node', import.meta.url));
    const child = fileURLToPath(new URL('../fixtures/fragment-c-heap.cjs', import.meta.url));
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', child, helper], { encoding: 'utf8' })) as {
      before: number;
      after: number;
      released: boolean;
    };
    // ~88 MB of 16 KB stores were freed between the kept ones; the trim returns most of them.
    expect(out.released).toBe(true);
    expect(out.before - out.after).toBeGreaterThan(40 * 1024 * 1024);
  });
});
