/** The spawned daemon's glibc settings: one malloc arena on Linux and, where it trims when idle, no trimming under load; the user's own choices win. */
import { describe, expect, it } from 'vitest';
import { daemonMallocEnv } from '../../src/daemon/malloc-env.js';

const THRESHOLDS = { MALLOC_TRIM_THRESHOLD_: String(32 * 1024 * 1024), MALLOC_MMAP_THRESHOLD_: String(1024 * 1024) };

describe('daemonMallocEnv', () => {
  it('asks glibc for one arena on Linux, and to keep freed memory where the daemon trims when idle', () => {
    expect(daemonMallocEnv({ PATH: '/usr/bin' }, true, 'linux')).toEqual({ MALLOC_ARENA_MAX: '1', ...THRESHOLDS });
    // without the trim helper, glibc's own trimming is all that hands memory back
    expect(daemonMallocEnv({ PATH: '/usr/bin' }, false, 'linux')).toEqual({ MALLOC_ARENA_MAX: '1' });
  });

  it("keeps the user's own arena setting, as a variable or a glibc tunable", () => {
    expect(daemonMallocEnv({ MALLOC_ARENA_MAX: '4' }, false, 'linux')).toEqual({});
    expect(daemonMallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, true, 'linux')).toEqual(THRESHOLDS);
    // other tunables do not count as an arena choice
    expect(daemonMallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.tcache_count=0' }, false, 'linux')).toEqual({ MALLOC_ARENA_MAX: '1' });
  });

  it("keeps the user's own trim or mmap threshold, and then sets neither (one alone turns off glibc's adjustment of both)", () => {
    for (const env of [
      { MALLOC_TRIM_THRESHOLD_: '0' },
      { MALLOC_MMAP_THRESHOLD_: '65536' },
      { GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0' },
      { GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=65536:glibc.malloc.arena_max=2' },
    ]) {
      const out = daemonMallocEnv(env, true, 'linux');
      expect(out.MALLOC_TRIM_THRESHOLD_).toBeUndefined();
      expect(out.MALLOC_MMAP_THRESHOLD_).toBeUndefined();
    }
  });

  it('sets nothing where the allocator is not glibc', () => {
    expect(daemonMallocEnv({}, true, 'darwin')).toEqual({});
    expect(daemonMallocEnv({}, true, 'win32')).toEqual({});
  });
});
