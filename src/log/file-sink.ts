/**
 * Appends batches of JSON lines to `requests.jsonl`, rotating by size and pruning by age.
 *
 * One write at a time; batches that arrive meanwhile are joined into the next write. A failing
 * disk never throws at the caller: the first failure is reported through `onError`, the failed
 * batch is dropped (counted), and later batches are tried again (a freed disk recovers by itself).
 */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CURRENT_LOG, rotatedName } from './paths.js';
import { pruneRotated } from './retention.js';

export interface FileSinkOptions {
  dir: string;
  maxBytes: () => number;
  retentionDays: () => number;
  /** Called once per failure episode (until a write succeeds again). */
  onError: (err: Error) => void;
  onRecover?: () => void;
  now?: () => number;
  /** Queued bytes beyond which the oldest batches are dropped (slow disk). */
  maxBacklogBytes?: number;
}

export interface SinkHealth {
  ok: boolean;
  /** Message of the failure in progress, when not ok. */
  error?: string;
  /** Lines lost to write failures or backlog overflow since start. */
  droppedLines: number;
}

interface Batch {
  text: string;
  lines: number;
}

export class FileSink {
  private readonly path: string;
  private readonly now: () => number;
  private readonly maxBacklog: number;
  private queue: Batch[] = [];
  private queuedBytes = 0;
  private size = 0;
  private ready: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private failing: Error | null = null;
  private dropped = 0;

  constructor(private readonly opts: FileSinkOptions) {
    this.path = join(opts.dir, CURRENT_LOG);
    this.now = opts.now ?? Date.now;
    this.maxBacklog = opts.maxBacklogBytes ?? 16 * 1024 * 1024;
  }

  health(): SinkHealth {
    return this.failing ? { ok: false, error: this.failing.message, droppedLines: this.dropped } : { ok: true, droppedLines: this.dropped };
  }

  /** Queue complete lines (each ending in \n). Never throws, never waits. */
  write(text: string, lines: number): void {
    if (text.length === 0) return;
    this.queue.push({ text, lines });
    this.queuedBytes += text.length;
    while (this.queuedBytes > this.maxBacklog && this.queue.length > 1) {
      const old = this.queue.shift()!;
      this.queuedBytes -= old.text.length;
      this.dropped += old.lines;
    }
    if (!this.running) this.running = this.pump();
  }

  /** Resolves when everything queued so far is on disk (or dropped). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        this.queuedBytes = 0;
        const text = batch.length === 1 ? batch[0]!.text : batch.map((b) => b.text).join('');
        const lines = batch.reduce((n, b) => n + b.lines, 0);
        try {
          await this.append(text);
          if (this.failing) {
            this.failing = null;
            this.opts.onRecover?.();
          }
        } catch (err) {
          this.dropped += lines;
          this.ready = null; // re-create the folder and re-read the size next time
          if (!this.failing) {
            this.failing = err instanceof Error ? err : new Error(String(err));
            this.opts.onError(this.failing);
          }
        }
      }
    } finally {
      this.running = null;
    }
  }

  /** mkdir + current size + retention, once per (re)start. */
  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.opts.dir, { recursive: true, mode: 0o700 });
      try {
        this.size = (await stat(this.path)).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        this.size = 0;
      }
      await this.prune();
    })();
    return this.ready;
  }

  private async append(text: string): Promise<void> {
    await this.prepare();
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.opts.maxBytes()) await this.rotate();
    await appendFile(this.path, text, { mode: 0o600 });
    this.size += bytes;
  }

  private async rotate(): Promise<void> {
    const at = new Date(this.now());
    for (let attempt = 0; ; attempt++) {
      const target = join(this.opts.dir, rotatedName(at, attempt));
      try {
        await stat(target);
        continue; // same-millisecond rotation: pick the next suffix
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
      try {
        await rename(this.path, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // deleted by hand: nothing to rotate
      }
      break;
    }
    this.size = 0;
    await this.prune();
  }

  /** Retention never costs a log line: a failure to delete is reported once and writing goes on. */
  private async prune(): Promise<void> {
    try {
      await pruneRotated(this.opts.dir, this.opts.retentionDays(), this.now());
    } catch (err) {
      if (this.pruneReported) return;
      this.pruneReported = true;
      const e = err instanceof Error ? err : new Error(String(err));
      this.opts.onError(new Error(`request log retention: ${e.message}`));
    }
  }
  private pruneReported = false;
}
