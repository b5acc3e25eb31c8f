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
 * MALLOC_TRIM_THRESHOLD_ / MALLOC_MMAP_THRESHOLD_: by default glibc hands the top of its heap
 * back to the OS as soon as more than ~2 freed allocations' worth is there, and V8 frees request
 * bodies in batches after each collection: under a stream of 300 KB requests every body was
 * written into freshly faulted pages (13–20 page faults a request, each costly on a VM): a 300 KB
 * passthrough request cost 1.37–1.53 ms of CPU against 1.02–1.14 with these settings (1–6 faults;
 * interleaved runs). A 4 MB trim threshold kept most of the faults. Freed memory stays in the heap
 * under load instead and is reused; the idle collector's malloc_trim (idle-collector.ts) hands it
 * back once the daemon rests, so these are set only where that trim is there. Bodies of 1 MB and
 * more still get mappings of their own. The price is the top of the heap under load: the peak over
 * the bench's two 50-connection stream rows read 153–174 MB in three runs, 148–164 in six without.
 *
 * A value the user set (the variable, or the glibc.malloc tunable in GLIBC_TUNABLES) is kept.
 */
type Env = Readonly<Record<string, string | undefined>>;

/** Freed memory kept at the top of the heap under load (the idle trim returns it). */
const TRIM_THRESHOLD = String(32 * 1024 * 1024);
/** Allocations this large get a mapping of their own, returned at once when freed. */
const MMAP_THRESHOLD = String(1024 * 1024);

function userChose(env: Env, variable: string, tunable: string): boolean {
  return env[variable] !== undefined || (env.GLIBC_TUNABLES?.includes(`glibc.malloc.${tunable}`) ?? false);
}

/** `trimsWhenIdle`: the daemon will run malloc_trim when idle (the native helper is built). */
export function daemonMallocEnv(env: Env, trimsWhenIdle: boolean, platform: NodeJS.Platform = process.platform): Record<string, string> {
  if (platform !== 'linux') return {};
  const out: Record<string, string> = {};
  if (!userChose(env, 'MALLOC_ARENA_MAX', 'arena_max')) out.MALLOC_ARENA_MAX = '1';
  // one without the other would turn off glibc's own adjustment of both
  if (trimsWhenIdle && !userChose(env, 'MALLOC_TRIM_THRESHOLD_', 'trim_threshold') && !userChose(env, 'MALLOC_MMAP_THRESHOLD_', 'mmap_threshold')) {
    out.MALLOC_TRIM_THRESHOLD_ = TRIM_THRESHOLD;
    out.MALLOC_MMAP_THRESHOLD_ = MMAP_THRESHOLD;
  }
  return out;
}
