/**
 * A stream's longest silence, watched coarsely: a look every quarter of the limit compares the
 * stream's chunk count with the last look's, and after four looks in a row without a chunk (and
 * with the stream not paused by its reader) the silence has lasted at least the limit, at most a
 * quarter more. Per chunk this costs the caller one counter; per stream, one timer. A timer
 * refreshed at every chunk would read the clock each time.
 */
const LOOKS = 4;

export class IdleWatch {
  private readonly timer: NodeJS.Timeout;
  private lastCount: number;
  private quietLooks = 0;

  constructor(
    limitMs: number,
    private readonly count: () => number,
    private readonly paused: () => boolean,
    private readonly onSilent: () => void,
  ) {
    this.lastCount = count();
    this.timer = setInterval(this.look, Math.max(1, Math.ceil(limitMs / LOOKS)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private readonly look = (): void => {
    const now = this.count();
    if (now !== this.lastCount || this.paused()) {
      this.lastCount = now;
      this.quietLooks = 0;
      return;
    }
    if (++this.quietLooks < LOOKS) return;
    this.stop();
    this.onSilent();
  };
}
