/**
 * The live request log as server-sent events (GET /admin/logs/stream): one `data:` event per
 * entry (the JSON the log already serialised, never re-stringified), a comment heartbeat so idle
 * proxies and clients keep the connection, and a final `event: end` when the daemon stops.
 * A client that stops reading is cut off rather than buffered without bound.
 */
import { compileFilter, type LogFilter } from '../../log/filter.js';
import type { RequestLog } from '../../log/writer.js';

export interface FeedOptions {
  filter: LogFilter;
  /** Send up to this many recent matching entries first (oldest first), then live ones. */
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
      const sentIds = new Set<string>();
      if (opts.recent && opts.recent > 0) {
        const backlog = log.recent({ ...opts.filter, limit: opts.recent });
        for (let i = backlog.length - 1; i >= 0; i--) {
          const e = backlog[i]!;
          sentIds.add(e.id);
          send(`id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`);
        }
      }
      // Subscribing in the same tick as reading the ring leaves no gap; entries still waiting for
      // their batch may come twice, which sentIds absorbs.
      unsubscribe = log.subscribe(
        (e, json) => {
          if (!matches(e)) return;
          if (sentIds.size > 0 && sentIds.delete(e.id)) return;
          send(`id: ${e.id}\ndata: ${json}\n\n`);
        },
        () => finish('daemon_stopping'),
      );
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
