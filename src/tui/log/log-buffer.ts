/**
 * The live log as the TUI holds it: at most `capacity` entries, newest first. New entries wait in
 * a pending list until `flush()` (the screen flushes on a timer, so 50 requests/second cost ten
 * renders, not fifty) or, while paused, until resumed. Ids seen are remembered so a backlog sent
 * again after a reconnect does not duplicate rows.
 */
import type { RequestLogEntry } from '../../log/entry.js';

export class LogBuffer {
  private shown: RequestLogEntry[] = [];
  private pending: RequestLogEntry[] = [];
  private readonly ids = new Set<string>();
  /** Bumped on every change of what `entries()` returns. */
  version = 0;

  constructor(readonly capacity = 2_000) {}

  /** Queue an entry (arrival order: oldest first). Duplicates are ignored. */
  push(e: RequestLogEntry): void {
    if (this.ids.has(e.id)) return;
    this.ids.add(e.id);
    this.pending.push(e);
    if (this.pending.length > this.capacity) {
      for (const dropped of this.pending.splice(0, this.pending.length - this.capacity)) this.ids.delete(dropped.id);
    }
  }

  /** Entries waiting to be shown. */
  get pendingCount(): number {
    return this.pending.length;
  }

  /** Move pending entries to the top; true when anything changed. */
  flush(): boolean {
    if (this.pending.length === 0) return false;
    const next = this.pending.reverse().concat(this.shown);
    this.pending = [];
    // Forget the ids of entries that fall off the end.
    for (let i = this.capacity; i < next.length; i++) this.ids.delete(next[i]!.id);
    if (next.length > this.capacity) next.length = this.capacity;
    this.shown = next;
    this.version++;
    return true;
  }

  /** Shown entries, newest first. */
  entries(): readonly RequestLogEntry[] {
    return this.shown;
  }
}
