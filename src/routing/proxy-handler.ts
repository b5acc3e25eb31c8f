/**
 * Seam between the HTTP server and the routing core. The server authenticates, works out the
 * route, and hands the raw Node request/response to the handler, which owns everything after.
 *
 * PLACEHOLDER until the routing core lands: answers 501 not_implemented.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/schema.js';
import type { RequestLogEntry } from '../log/entry.js';
import { anthropicErrorBody, openaiErrorBody } from '../protocols/errors.js';

export type ProxyEndpoint =
  | 'chat' // POST protocol-a/v1/chat/completions
  | 'responses' // POST protocol-a/v1/responses
  | 'responses_item' // GET/DELETE protocol-a/v1/responses/{id}
  | 'models' // GET …/models
  | 'transcriptions' // POST protocol-a/v1/audio/transcriptions
  | 'messages' // POST protocol-b/v1/messages
  | 'count_tokens'; // POST protocol-b/v1/messages/count_tokens

export interface ProxyRoute {
  /** a = OpenAI dialects (error shape A), b = Anthropic Messages (error shape B). */
  protocol: 'a' | 'b';
  /** Group slug for /g/<slug>/… bases; undefined for provider bases. */
  group?: string;
  endpoint: ProxyEndpoint;
}

export interface ProxyCaller {
  keyId: string;
  keyName: string;
}

export interface ProxyDeps {
  /** Current configuration (hot-reloaded by the daemon; always a valid snapshot). */
  config(): Config;
  /** Provider/endpoint credential from the daemon's in-memory cache (env > keychain > file). */
  credential(slug: string): string | undefined;
  /** Enqueue a log record; never throws, never blocks. */
  log(entry: RequestLogEntry): void;
}

export interface ProxyHandler {
  handle(req: IncomingMessage, res: ServerResponse, route: ProxyRoute, caller: ProxyCaller): Promise<void>;
  /** Close upstream connection pools (daemon shutdown). */
  close(): Promise<void>;
}

export function createProxyHandler(_deps: ProxyDeps): ProxyHandler {
  return {
    async handle(_req, res, route) {
      const err = { status: 501, code: 'not_implemented', message: 'This endpoint is not implemented yet.' };
      res.writeHead(501, { 'content-type': 'application/json' });
      res.end(JSON.stringify(route.protocol === 'a' ? openaiErrorBody(err) : anthropicErrorBody(err)));
    },
    async close() {},
  };
}
