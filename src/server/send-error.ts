/**
 * Error responses the server writes itself: in the shape of the base the client called (protocol
 * A or B, rendered by routing's errorJson, the one place both shapes are written) for refusals on
 * the proxy bases, and in the admin API's shape for failures on /health and /admin/*.
 */
import type { ServerResponse } from 'node:http';
import { errorJson, type Protocol } from '../routing/respond.js';
import type { AdminErrorBody } from './admin/respond.js';

export type { Protocol };

/** Send a JSON error body; once an answer has started there is nothing to say, so the connection goes. */
function sendErrorBody(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendProtocolError(
  res: ServerResponse,
  protocol: Protocol,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendErrorBody(res, status, errorJson(protocol, { status, code, message }), headers);
}

export function sendAdminError(res: ServerResponse, status: number, code: string, message: string): void {
  const body: AdminErrorBody = { error: { code, message } };
  sendErrorBody(res, status, JSON.stringify(body));
}
