/**
 * The waiting line of a file lock, so that under sustained contention it is taken in turn: without
 * it a process that just let go could take the lock again at once while the others slept out their
 * backoff, and one of them could wait as long as the contention lasted. A waiter puts a ticket in
 * `<lock>.queue/`, named by the time it came, its pid and host; only the holder of the oldest live
 * ticket tries the lock (a newcomer goes straight for it only when nobody waits).
 *
 * The lock file alone still keeps sections apart: the line only orders who tries, so a ticket
 * lost or misjudged costs a turn, never a write. A ticket whose process is gone, or that its owner
 * has not touched for a while (another host, a reused pid), is removed by whoever finds it first.
 */
import { mkdir, open, readdir, rmdir, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './process-alive.js';

/** A waiter touches its ticket this often; one untouched for TICKET_STALE_MS is abandoned. */
const TOUCH_MS = 1_000;
const TICKET_STALE_MS = 3_000;
/** Ticket names carry the host, so only tickets from this machine are judged by their pid. */
const HOST = hostname().replace(/[^A-Za-z0-9]/g, '_');

let issued = 0;

/** Time, pid and a per-process count, zero-padded so names sort in the order the waiters came. */
function ticketName(): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(Date.now(), 15)}-${pad(process.pid, 10)}-${pad(++issued, 9)}-${HOST}`;
}

export class LockQueue {
  private ticket: string | undefined;
  private touchedAt = 0;
  private aheadPath: string | undefined;
  /** The line's directory was there when we looked: whoever leaves it empty removes it. */
  private sawLine = false;

  constructor(private readonly dir: string) {}

  get waiting(): boolean {
    return this.ticket !== undefined;
  }

  /** The ticket just ahead of ours at the last look (its path): the one whose going may make us first. */
  get ahead(): string | undefined {
    return this.aheadPath;
  }

  /** Is it our turn to try the lock: our ticket first in line, or, before we have one, nobody waiting? */
  async ourTurn(): Promise<boolean> {
    const first = await this.firstLiveTicket();
    if (this.ticket === undefined) return first === undefined;
    if (first === undefined || first > this.ticket) {
      // ours is gone: judged abandoned while we stalled, or the directory removed under us
      this.ticket = undefined;
      await this.join();
      return false;
    }
    await this.touch();
    return first === this.ticket;
  }

  /** Take a ticket at the end of the line. */
  async join(): Promise<void> {
    const name = ticketName();
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(this.dir, { recursive: true, mode: 0o700 });
        await (await open(join(this.dir, name), 'wx', 0o600)).close();
        break;
      } catch (err) {
        // the directory removed by a leaving waiter between our mkdir and open: make it again
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw err;
      }
    }
    this.ticket = name;
    this.touchedAt = Date.now();
    this.sawLine = true;
  }

  /** Give up our ticket (taken the lock, or given up); the directory goes with the last one. */
  async leave(): Promise<void> {
    if (this.ticket !== undefined) await unlink(join(this.dir, this.ticket)).catch(() => {});
    this.ticket = undefined;
    if (this.sawLine) await rmdir(this.dir).catch(() => {}); // fails while others wait: theirs to remove
  }

  private async touch(): Promise<void> {
    if (this.ticket === undefined || Date.now() - this.touchedAt < TOUCH_MS) return;
    this.touchedAt = Date.now();
    const now = new Date();
    await utimes(join(this.dir, this.ticket), now, now).catch(() => {});
  }

  /** The oldest ticket whose waiter is alive, removing the abandoned ones ahead of it. */
  private async firstLiveTicket(): Promise<string | undefined> {
    let names: string[];
    try {
      names = await readdir(this.dir);
      this.sawLine = true;
    } catch {
      this.aheadPath = undefined;
      return undefined;
    }
    names.sort();
    const ours = this.ticket === undefined ? -1 : names.indexOf(this.ticket);
    this.aheadPath = ours > 0 ? join(this.dir, names[ours - 1] as string) : undefined;
    for (const name of names) {
      if (name === this.ticket) return name;
      if (await this.abandoned(name)) await unlink(join(this.dir, name)).catch(() => {});
      else return name;
    }
    return undefined;
  }

  private async abandoned(name: string): Promise<boolean> {
    const [, pidText, , host] = name.split('-');
    const pid = Number(pidText);
    if (host === HOST && Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) return true;
    try {
      return Date.now() - (await stat(join(this.dir, name))).mtimeMs > TICKET_STALE_MS;
    } catch {
      return true; // gone meanwhile
    }
  }
}
