/** Error responses in the shape of the base the client called (protocol A or B). */
import type { ServerResponse } from 'node:http';
import { anthropicErrorBody, openaiErrorBody } from '../protocols/errors.js';

export type Protocol = 'a' | 'b';

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
  const err = { status, code, message };
  const body = JSON.stringify(protocol === 'b' ? anthropicErrorBody(err) : openaiErrorBody(err));
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
