/** The spawned daemon's glibc settings: one malloc arena on Linux, unless the user chose otherwise. */
import { describe, expect, it } from 'vitest';
import { daemonMallocEnv } from '../../src/daemon/malloc-env.js';

describe('daemonMallocEnv', () => {
  it('asks glibc for one arena on Linux', () => {
    expect(daemonMallocEnv({ PATH: '/usr/bin' }, 'linux')).toEqual({ MALLOC_ARENA_MAX: '1' });
  });

  it("keeps the user's own arena setting, as a variable or a glibc tunable", () => {
    expect(daemonMallocEnv({ MALLOC_ARENA_MAX: '4' }, 'linux')).toEqual({});
    expect(daemonMallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0:glibc.malloc.arena_max=2' }, 'linux')).toEqual({});
    // other tunables do not count as an arena choice
    expect(daemonMallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0' }, 'linux')).toEqual({ MALLOC_ARENA_MAX: '1' });
  });

  it('sets nothing where the allocator is not glibc', () => {
    expect(daemonMallocEnv({}, 'darwin')).toEqual({});
    expect(daemonMallocEnv({}, 'win32')).toEqual({});
  });
});
