/**
 * Writing whole (non-streamed) answers on the raw Node response, in the client's protocol shape.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { anthropicErrorBody, openaiErrorBody } from '../protocols/errors.js';
import type { HubError } from '../protocols/hub.js';
import { endEarlyStream } from './early-stream.js';
import type { UpstreamResponse } from './services.js';
import { upstreamHeader } from './upstream-header.js';

export type Protocol = 'a' | 'b';

export function errorJson(protocol: Protocol, err: HubError): string {
  return JSON.stringify(protocol === 'b' ? anthropicErrorBody(err) : openaiErrorBody(err));
}

export function sendBody(res: ServerResponse, status: number, contentType: string, body: string | Buffer, headers?: OutgoingHttpHeaders): void {
  if (res.headersSent || res.destroyed) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('content-type', contentType);
  res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: string | Buffer, headers?: OutgoingHttpHeaders): void {
  sendBody(res, status, 'application/json', body, headers);
}

/** An error answer; on a stream whose headers went out early (early-stream.ts), its final error event. */
export function sendError(res: ServerResponse, protocol: Protocol, err: HubError, headers?: OutgoingHttpHeaders): void {
  if (!endEarlyStream(res, err)) sendJson(res, err.status, errorJson(protocol, err), headers);
}

/**
 * The `x-svc-upstream-provider` and `x-svc-upstream-model` headers of an answer. A model id comes
 * from the client or the upstream and may hold what a header value cannot (a control or non-Latin-1
 * character): Node would throw while the answer is being sent, after the upstream was paid for.
 * Such characters are percent-encoded.
 */
export function answeredByHeaders(provider: string, model: string): OutgoingHttpHeaders {
  return { 'x-svc-upstream-provider': provider, 'x-svc-upstream-model': headerSafe(model) };
}

/** Who answered, and the upstream's own id of the request (for a support ticket with the provider). */
export function answerHeaders(slug: string, answered: string, upstreamHeaders: UpstreamResponse['headers']): OutgoingHttpHeaders {
  const headers = answeredByHeaders(slug, answered);
  const requestId = upstreamHeader(upstreamHeaders, 'x-request-id') ?? upstreamHeader(upstreamHeaders, 'request-id');
  if (requestId) headers['x-svc-upstream-request-id'] = requestId;
  return headers;
}

function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : value.replace(/[^\x20-\x7e]/gu, (c) => encodeURIComponent(c));
}
