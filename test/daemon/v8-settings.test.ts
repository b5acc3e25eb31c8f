/** A daemon run in-process (start --foreground, tests) gets V8's collection function without --expose-gc. */
import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { applyDaemonV8Settings, DAEMON_NODE_FLAGS } from '../../src/daemon/v8-settings.js';

describe('daemon V8 settings', () => {
  it('returns a working full collection in a process started without --expose-gc', () => {
    expect(process.execArgv).not.toContain('--expose-gc');
    const gc = applyDaemonV8Settings();
    let garbage: unknown[] | null = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `item ${i}` }));
    const before = getHeapStatistics().used_heap_size;
    expect((garbage as unknown[]).length).toBe(200_000);
    garbage = null;
    gc();
    expect(garbage).toBeNull();
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - 5 * 1024 * 1024);
  });

  it('the spawned daemon gets the same settings as node flags', () => {
    expect(DAEMON_NODE_FLAGS).toEqual(['--expose-gc', '--no-wasm-tier-up']);
  });
});
