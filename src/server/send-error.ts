/**
 * Error responses in the shape of the base the client called (protocol A or B), for the server's
 * own refusals (host, auth, route, draining). The body is rendered by routing's errorJson, the one
 * place both shapes are written.
 */
import type { ServerResponse } from 'node:http';
import { errorJson, type Protocol } from '../routing/respond.js';

export type { Protocol };

export function sendProtocolError(
  res: ServerResponse,
  protocol: Protocol,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorJson(protocol, { status, code, message });
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
