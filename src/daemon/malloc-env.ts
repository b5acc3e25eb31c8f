/**
 * glibc malloc settings for the spawned daemon, as environment (glibc reads them once, at start).
 *
 * MALLOC_ARENA_MAX=1: glibc gives threads that allocate at once arenas of their own (up to 8 per
 * core); V8's worker threads and libuv's pool each held a few MB of them after a burst, spread
 * over pages that malloc_trim could not hand back. With one arena, RSS after 1,000 concurrent
 * streams settled at 74 MB instead of 84 (idle 62–63), and the bench's CPU per request did not
 * move (interleaved runs, medians within the noise). The daemon's JavaScript is one thread, so
 * there is little to contend for.
 *
 * A value the user set (the variable, or glibc.malloc.arena_max in GLIBC_TUNABLES) is kept.
 */
type Env = Readonly<Record<string, string | undefined>>;

export function daemonMallocEnv(env: Env, platform: NodeJS.Platform = process.platform): Record<string, string> {
  if (platform !== 'linux') return {};
  if (env.MALLOC_ARENA_MAX !== undefined || env.GLIBC_TUNABLES?.includes('glibc.malloc.arena_max')) return {};
  return { MALLOC_ARENA_MAX: '1' };
}
