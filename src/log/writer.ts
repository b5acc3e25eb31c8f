/**
 * The daemon's request log: `record()` is all the request path ever calls — an O(1) push into the
 * ring and the pending batch, no I/O, no serialising. A short timer later, the batch is prepared
 * (bodies redacted or dropped), serialised once, handed to live subscribers and appended to disk.
 */
import type { Settings } from '../config/schema.js';
import type { RequestLogEntry } from './entry.js';
import { FileSink, type SinkHealth } from './file-sink.js';
import { compileFilter } from './filter.js';
import { clampLimit, queryLog, statsLog, type LogQuery } from './query.js';
import { maskClientFields } from './mask-fields.js';
import { shareNames } from './shared-names.js';
import { redactBody } from './redact-body.js';
import { Ring } from './ring.js';
import type { LogFilter } from './filter.js';
import type { StatsBy, StatsReport } from './stats.js';

export type LogSettings = Pick<Settings, 'logMaxBytes' | 'logMaxTotalBytes' | 'logRetentionDays' | 'logBodies'>;

export interface RequestLogOptions {
  /** The log folder (see `logsDir(stateDir)`). */
  dir: string;
  /** A getter follows hot reloads of config.json. */
  settings: LogSettings | (() => LogSettings);
  /** The log cannot be written (reported once per failure episode). The proxy keeps serving. */
  onError?: (err: Error) => void;
  /** Writing works again after a failure. */
  onRecover?: () => void;
  /** Entries kept in memory (default 2,000). */
  ringSize?: number;
  /** Batch window (default 50 ms). */
  flushIntervalMs?: number;
  /** How often, at most, the open log file is checked against its name (default 1 s; FileSink). */
  recheckMs?: number;
  /** Close the log file after this long without a batch (default 5 s; FileSink). */
  idleCloseMs?: number;
  /**
   * With logBodies, how many of the latest entries keep their bodies in memory (default 100), and
   * how many bytes of logged lines those may come to (default 32 MB: a coding agent's turns are
   * 100–500 KB, a request may be 32 MB); older ring entries drop them (the files keep them), so
   * large bodies cannot pile up.
   */
  bodiesInMemory?: number;
  bodyBytesInMemory?: number;
  now?: () => number;
}

/** A live-feed subscriber gets each entry and its JSON text (already serialised for the file). */
export type LogListener = (entry: RequestLogEntry, json: string) => void;

export interface LogHealth extends SinkHealth {
  /** Entries recorded since start. */
  recorded: number;
  subscribers: number;
}

export interface RequestLog {
  /** Enqueue an entry. Never throws, never blocks, never touches the disk. */
  record(entry: RequestLogEntry): void;
  /** Latest matching entries held in memory, newest first. */
  recent(q?: LogQuery): RequestLogEntry[];
  /** Latest matching entries, from memory and then from the files, newest first. */
  query(q: LogQuery): Promise<RequestLogEntry[]>;
  stats(filter: LogFilter, by: StatsBy): Promise<StatsReport>;
  /** Live feed; `onEnd` runs when the log closes (daemon stop). Returns the unsubscribe function. */
  subscribe(fn: LogListener, onEnd?: () => void): () => void;
  health(): LogHealth;
  /** Write everything recorded so far. */
  flush(): Promise<void>;
  /**
   * End every live feed now and refuse new ones, while still recording: the first step of a
   * daemon stop, so open SSE connections do not hold the drain up.
   */
  endFeeds(): void;
  /** Flush, end every subscriber, and ignore later records. */
  close(): Promise<void>;
}

interface Subscriber {
  fn: LogListener;
  onEnd?: () => void;
}

export function createRequestLog(opts: RequestLogOptions): RequestLog {
  const settings = typeof opts.settings === 'function' ? opts.settings : () => opts.settings as LogSettings;
  const now = opts.now ?? Date.now;
  const interval = opts.flushIntervalMs ?? 50;
  const ring = new Ring<RequestLogEntry>(opts.ringSize ?? 2000);
  const prepared = new WeakSet<RequestLogEntry>();
  const subscribers = new Set<Subscriber>();
  const sink = new FileSink({
    dir: opts.dir,
    maxBytes: () => settings().logMaxBytes,
    retention: () => {
      const s = settings();
      return { retentionDays: s.logRetentionDays, maxTotalBytes: s.logMaxTotalBytes, currentMaxBytes: s.logMaxBytes };
    },
    onError: (err) => opts.onError?.(err),
    ...(opts.recheckMs !== undefined ? { recheckMs: opts.recheckMs } : {}),
    ...(opts.idleCloseMs !== undefined ? { idleCloseMs: opts.idleCloseMs } : {}),
    ...(opts.onRecover ? { onRecover: opts.onRecover } : {}),
    now,
  });
  const bodiesInMemory = opts.bodiesInMemory ?? 100;
  const bodyBytesInMemory = opts.bodyBytesInMemory ?? 32 * 1024 * 1024;
  /** Entries that keep their bodies in memory, oldest first, with the length of their logged line. */
  const withBodies: Array<{ entry: RequestLogEntry; bytes: number }> = [];
  let bodyBytes = 0;
  let pending: RequestLogEntry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let recorded = 0;
  let closed = false;
  let feedsEnded = false;

  function endAllFeeds(): void {
    feedsEnded = true;
    const ending = [...subscribers];
    subscribers.clear();
    for (const s of ending) {
      try {
        s.onEnd?.();
      } catch {
        // Ending a feed whose client already left.
      }
    }
  }

  /**
   * Bodies leave the log only redacted, and only when logging them is on. Idempotent. Only
   * entries that carry a body are remembered as done: a WeakSet given every entry grew its table
   * to ~1 MB under load (it keeps the capacity its peak needed) and kept it for good.
   */
  function prepare(e: RequestLogEntry): RequestLogEntry {
    if (e.requestBody === undefined && e.responseBody === undefined) return e;
    if (prepared.has(e)) return e;
    prepared.add(e);
    if (settings().logBodies) {
      if (e.requestBody !== undefined) e.requestBody = redactBody(e.requestBody);
      if (e.responseBody !== undefined) e.responseBody = redactBody(e.responseBody);
    } else {
      delete e.requestBody;
      delete e.responseBody;
    }
    return e;
  }

  function tick(): void {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    let text = '';
    let lines = 0;
    for (const e of batch) {
      let json: string;
      try {
        json = JSON.stringify(prepare(e));
      } catch {
        continue; // a body we cannot serialise (cycle, BigInt): lose this line, not the batch
      }
      text += json + '\n';
      lines++;
      if (e.requestBody !== undefined || e.responseBody !== undefined) {
        withBodies.push({ entry: e, bytes: json.length });
        bodyBytes += json.length;
        // the newest too, when it alone is over the budget
        while (withBodies.length > bodiesInMemory || bodyBytes > bodyBytesInMemory) {
          const old = withBodies.shift()!;
          bodyBytes -= old.bytes;
          delete old.entry.requestBody;
          delete old.entry.responseBody;
        }
      }
      for (const s of subscribers) {
        try {
          s.fn(e, json);
        } catch {
          // A broken subscriber (closed socket) must not stop the others or the file.
        }
      }
    }
    sink.write(text, lines);
  }

  function ringNewestFirst(): Iterable<RequestLogEntry> {
    return (function* () {
      for (const e of ring.newestFirst()) yield prepare(e);
    })();
  }

  return {
    record(entry) {
      if (closed) return;
      try {
        // a few short strings: the bodies wait for the batch (prepare)
        maskClientFields(entry);
        // after masking: the table keeps no name whose record had a key masked out of it
        shareNames(entry);
        ring.push(entry);
        pending.push(entry);
        recorded++;
        if (!timer) {
          timer = setTimeout(tick, interval);
          timer.unref();
        }
      } catch {
        // Logging never fails a request.
      }
    },

    recent(q = {}) {
      const limit = clampLimit(q.limit);
      const matches = compileFilter(q);
      const out: RequestLogEntry[] = [];
      for (const e of ringNewestFirst()) {
        if (!matches(e)) continue;
        out.push(e);
        if (out.length >= limit) break;
      }
      return out;
    },

    query(q) {
      return queryLog({ dir: opts.dir, ring: ringNewestFirst }, q);
    },

    stats(filter, by) {
      return statsLog({ dir: opts.dir, ring: ringNewestFirst }, filter, by, now());
    },

    subscribe(fn, onEnd) {
      if (feedsEnded) {
        onEnd?.();
        return () => {};
      }
      const s: Subscriber = onEnd ? { fn, onEnd } : { fn };
      subscribers.add(s);
      return () => {
        subscribers.delete(s);
      };
    },

    health() {
      return { ...sink.health(), recorded, subscribers: subscribers.size };
    },

    async flush() {
      tick();
      await sink.drain();
    },

    async close() {
      if (closed) return sink.drain();
      closed = true;
      tick();
      await sink.close();
      endAllFeeds();
    },

    endFeeds() {
      tick(); // what was recorded so far still reaches the feeds before they end
      endAllFeeds();
    },
  };
}
