/**
 * Notices that the machine slept. A laptop's lid closes with upstream connections kept alive; by
 * the time it opens the provider has long dropped them, and the network may be another one. The
 * pools' keep-alive clocks do not know: Node's timers run on a monotonic clock that stops while
 * the machine sleeps (CLOCK_MONOTONIC on Linux, mach_absolute_time on macOS), so a connection
 * idle for 10 s before an hour's sleep still counts as idle for 10 s, and the next request is
 * written into it — to be reset (a 502 for the tool) or, on another network, to wait unanswered
 * up to the headers timeout. The wall clock runs on through sleep: when it gained well on the
 * monotonic one since the last upstream request, the machine slept in between.
 */

export interface SleepClocks {
  /** The wall clock (Date.now), which counts time asleep. */
  wallMs(): number;
  /** A monotonic clock (performance.now), which does not. */
  monoMs(): number;
}

export const SYSTEM_CLOCKS: SleepClocks = { wallMs: () => Date.now(), monoMs: () => performance.now() };

/**
 * Time the wall clock may gain on the monotonic one before it counts as sleep: above what clock
 * adjustments make (NTP slews by milliseconds), below any provider's idle-connection timeout.
 */
export const SLEEP_THRESHOLD_MS = 10_000;

export class SleepDetector {
  private wall: number;
  private mono: number;

  constructor(
    private readonly clocks: SleepClocks = SYSTEM_CLOCKS,
    private readonly thresholdMs = SLEEP_THRESHOLD_MS,
  ) {
    this.wall = clocks.wallMs();
    this.mono = clocks.monoMs();
  }

  /** About how long the machine slept since the last check, when it did; else undefined. */
  check(): number | undefined {
    const wall = this.clocks.wallMs();
    const mono = this.clocks.monoMs();
    const gained = wall - this.wall - (mono - this.mono);
    this.wall = wall;
    this.mono = mono;
    return gained >= this.thresholdMs ? gained : undefined;
  }
}
