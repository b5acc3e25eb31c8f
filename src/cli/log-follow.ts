/**
 * Following the daemon's live request log (GET /admin/logs/stream, server-sent events) over
 * node:http. Resolves how the feed ended: the caller aborted (Ctrl-C), the daemon said it is
 * stopping, or the connection was lost.
 */
import { request } from 'node:http';
import type { RequestLogEntry } from '../log/entry.js';
import { SseParser } from '../protocols/sse.js';
import { onAbort } from '../util/on-abort.js';
import { AdminApiError } from './admin-client.js';

export type FollowEnd = 'aborted' | 'daemon_stopped' | 'connection_lost';

export interface FollowTarget {
  origin: string;
  authorization: string;
}

export function followLog(target: FollowTarget, params: URLSearchParams, onEntry: (e: RequestLogEntry) => void, signal: AbortSignal): Promise<FollowEnd> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      resolve('aborted');
      return;
    }
    let settled = false;
    const settle = (end: FollowEnd) => {
      if (settled) return;
      settled = true;
      stopListening();
      req.destroy();
      resolve(end);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      stopListening();
      req.destroy();
      reject(err);
    };
    const req = request(`${target.origin}/admin/logs/stream?${params}`, {
      headers: { authorization: target.authorization, accept: 'text/event-stream' },
    });
    const stopListening = onAbort(signal, () => settle('aborted'));
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let error: { code?: string; message?: string } | undefined;
          try {
            error = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: typeof error }).error;
          } catch {
            // not our JSON error shape
          }
          fail(new AdminApiError(res.statusCode ?? 0, error?.code ?? 'admin_error', error?.message ?? `The daemon answered HTTP ${res.statusCode}.`));
        });
        return;
      }
      const parser = new SseParser((ev) => {
        if (ev.event === 'end') {
          settle('daemon_stopped');
          return;
        }
        if (ev.event !== undefined && ev.event !== 'message') return;
        try {
          onEntry(JSON.parse(ev.data) as RequestLogEntry);
        } catch (err) {
          fail(err instanceof Error ? err : new Error(String(err)));
        }
      });
      res.on('data', (chunk: Buffer) => parser.push(chunk));
      res.on('end', () => settle('connection_lost'));
      res.on('error', () => settle('connection_lost'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (settled) return;
      fail(new Error(`cannot reach the daemon at ${target.origin}: ${err.code ?? err.message}`));
    });
    req.end();
  });
}
