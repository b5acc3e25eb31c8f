/**
 * Whether a request that failed with its connection had gone out on one that had already carried
 * an answer. Only such a connection can be stale — closed by its server's idle timeout as the
 * request went out, the request never read — so only then may a POST be sent again
 * (upstream-client.ts); a fresh connection closed under a request means the server got the
 * request and died on it, and a second generation could be billed twice.
 *
 * What the connection had read when it failed tells: undici's own SocketError ("other side
 * closed") carries it (`socket.bytesRead`); a bare ECONNRESET or EPIPE from the socket carries
 * nothing, so every upstream socket gets, once as it connects (undici's `undici:client:connected`
 * channel; nothing per request), an error listener that notes its bytes read against the error
 * object undici then fails the request with. Bytes read count the answers' bytes only, after TLS.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

const readWhenFailed = new WeakMap<object, number>();

function onConnected(message: unknown): void {
  const socket = (message as { socket?: Socket } | null)?.socket;
  if (!socket) return;
  socket.on('error', (err: Error) => {
    readWhenFailed.set(err, socket.bytesRead);
  });
}

subscribe('undici:client:connected', onConnected);

/** Whether the connection `err` failed had read an answer before (unknown: no). */
export function failedOnUsedConnection(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const info = (err as { socket?: { bytesRead?: unknown } | null }).socket;
  if (typeof info?.bytesRead === 'number') return info.bytesRead > 0;
  return (readWhenFailed.get(err) ?? 0) > 0;
}
