/**
 * The live request log as server-sent events (GET /admin/logs/stream): one `data:` event per
 * entry (the JSON the log already serialised, never re-stringified), a comment heartbeat so idle
 * proxies and clients keep the connection, and a final `event: end` when the daemon stops.
 * A client that stops reading is cut off rather than buffered without bound.
 */
import type { RequestLogEntry } from '../../log/entry.js';
import { compileFilter, type LogFilter } from '../../log/filter.js';
import type { RequestLog } from '../../log/writer.js';

export interface FeedOptions {
  filter: LogFilter;
  /** Send up to this many recent matching entries first (memory, then files; oldest first), then live ones. */
  recent?: number;
  heartbeatMs?: number;
  /** Queued events beyond which a client that does not read is dropped. */
  maxQueued?: number;
}

export const FEED_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;

export function logFeedResponse(log: RequestLog, opts: FeedOptions): Response {
  const matches = compileFilter(opts.filter);
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const maxQueued = opts.maxQueued ?? 5_000;
  const encoder = new TextEncoder();
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let done = false;

  const stop = () => {
    done = true;
    unsubscribe?.();
    unsubscribe = undefined;
    if (heartbeat) clearInterval(heartbeat);
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string): void => {
        if (done) return;
        if ((controller.desiredSize ?? 0) < -maxQueued) {
          stop();
          controller.error(new Error('log feed client is not reading'));
          return;
        }
        controller.enqueue(encoder.encode(text));
      };
      const finish = (reason: string) => {
        if (done) return;
        send(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
        stop();
        controller.close();
      };

      send(': svc-proxy request log\n\n');
      // Live entries that arrive while the backlog is read (from memory and files) wait here, so
      // nothing falls in the gap; the backlog's ids keep an entry from coming twice.
      let waiting: { e: RequestLogEntry; json: string }[] | null = opts.recent && opts.recent > 0 ? [] : null;
      let sentIds: Set<string> | null = null;
      const deliver = (e: RequestLogEntry, json: string) => {
        if (sentIds?.has(e.id)) return;
        send(`id: ${e.id}\ndata: ${json}\n\n`);
      };
      unsubscribe = log.subscribe(
        (e, json) => {
          if (!matches(e)) return;
          if (waiting) waiting.push({ e, json });
          else deliver(e, json);
        },
        () => {
          if (waiting) for (const w of waiting.splice(0)) deliver(w.e, w.json);
          waiting = null;
          finish('daemon_stopping');
        },
      );
      if (waiting) {
        log.query({ ...opts.filter, limit: opts.recent }).then(
          (backlog) => {
            if (done || !waiting) return;
            sentIds = new Set(backlog.map((e) => e.id));
            for (let i = backlog.length - 1; i >= 0; i--) send(`id: ${backlog[i]!.id}\ndata: ${JSON.stringify(backlog[i])}\n\n`);
            const held = waiting;
            waiting = null;
            for (const w of held) deliver(w.e, w.json);
          },
          () => {
            // The files cannot be read: go live without a backlog.
            const held = waiting ?? [];
            waiting = null;
            for (const w of held) deliver(w.e, w.json);
          },
        );
      }
      if (!done) {
        heartbeat = setInterval(() => send(': ping\n\n'), heartbeatMs);
        heartbeat.unref();
      }
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: 200, headers: FEED_HEADERS });
}
