/**
 * A small JSON-over-HTTP client for talking to our own daemon on loopback (node:http: cheap to
 * load, no fetch/undici start-up cost in the CLI).
 */
import { request } from 'node:http';

export interface JsonResponse<T = unknown> {
  status: number;
  body: T;
}

export class DaemonUnreachableError extends Error {
  /** the CLI's --json errors name it by this */
  readonly code = 'daemon_unreachable';
}

export function httpJson<T = unknown>(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<JsonResponse<T>> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(
      url,
      {
        method,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
          ...opts.headers,
        },
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : null;
          } catch {
            // not JSON: hand the text back
          }
          resolve({ status: res.statusCode ?? 0, body: body as T });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new DaemonUnreachableError(`no answer from ${new URL(url).host} within ${opts.timeoutMs ?? 30_000} ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof DaemonUnreachableError) reject(err);
      else reject(new DaemonUnreachableError(`cannot reach the daemon at ${new URL(url).host}: ${err.code ?? err.message}`));
    });
    req.end(payload);
  });
}
