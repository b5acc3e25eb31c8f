/**
 * CORS for browser clients, off by default: without settings.corsOrigins no CORS header is ever
 * sent. Listed origins (or "*") get their Origin echoed, and preflights are answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { trimTrailingSlashes } from '../util/slashes.js';

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const DEFAULT_ALLOWED_HEADERS =
  'authorization, x-api-key, content-type, anthropic-version, anthropic-beta, anthropic-dangerous-direct-browser-access, openai-organization, openai-project, x-stainless-retry-count, x-stainless-timeout';

export class CorsPolicy {
  private origins = new Set<string>();
  private any = false;

  constructor(origins: readonly string[]) {
    this.configure(origins);
  }

  configure(origins: readonly string[]): void {
    this.any = origins.includes('*');
    this.origins = new Set(origins.map((o) => trimTrailingSlashes(o.trim()).toLowerCase()));
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  private allows(origin: string): boolean {
    return this.any || this.origins.has(origin.toLowerCase());
  }

  /**
   * Adds CORS headers when the request's Origin is allowed. Returns the status of the answer when
   * the request was a preflight and has been answered (204, or 403 for an origin not listed).
   */
  apply(req: IncomingMessage, res: ServerResponse): number | undefined {
    const origin = req.headers.origin;
    if (origin === undefined || !this.enabled) return undefined;
    const allowed = this.allows(origin);
    const preflight = isPreflight(req);
    if (allowed) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('vary', 'origin');
      res.setHeader('access-control-expose-headers', 'x-svc-upstream-provider, x-svc-upstream-model, retry-after, retry-after-ms, x-should-retry, request-id, x-request-id');
    }
    if (!preflight) return undefined;
    if (!allowed) {
      res.writeHead(403, { 'content-length': 0 });
      res.end();
      return 403;
    }
    const requested = req.headers['access-control-request-headers'];
    res.writeHead(204, {
      'access-control-allow-methods': ALLOWED_METHODS,
      'access-control-allow-headers': typeof requested === 'string' && requested.length < 2048 ? requested : DEFAULT_ALLOWED_HEADERS,
      'access-control-max-age': '600',
      'content-length': 0,
    });
    res.end();
    return 204;
  }
}

/** A browser's CORS preflight: OPTIONS asking whether a method may be used. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}
