/**
 * A request whose headers are over node's limit (`http.maxHeaderSize`, 16 KB by default) never
 * becomes a request: node's parser stops and hands the raw socket to the server's `clientError`.
 * On a proxy base it is answered as any refusal is — a 431 in the base's error shape with a stable
 * code, and an entry in the request log — so an SDK reports why (it would say "431 status code (no
 * body)") and the tool's user can find it in `svc-proxy logs`. The path is read from the request
 * line at the start of the bytes the parser had; a request line not among them gets the bare 431.
 */
import { maxHeaderSize } from 'node:http';

export const HEADERS_TOO_LARGE = 'request_headers_too_large';

/** Longest request line read from the raw bytes (a longer one is not looked for). */
const MAX_REQUEST_LINE = 8 * 1024;

/** Method and path (no query) of the request line that opens `raw`, if it opens with one. */
export function requestLineOf(raw: Buffer | undefined): { method: string; path: string } | undefined {
  if (!raw) return undefined;
  const end = raw.indexOf('\r\n');
  const line = raw.subarray(0, end === -1 ? Math.min(raw.length, MAX_REQUEST_LINE) : Math.min(end, MAX_REQUEST_LINE)).toString('latin1');
  const m = /^([A-Z]+) (\/[^ ?#]*)\S* HTTP\/1\.[01]$/.exec(line);
  return m ? { method: m[1]!, path: m[2]! } : undefined;
}

export function headersTooLargeMessage(): string {
  return `The request's headers are larger than svc-proxy takes (${Math.round(maxHeaderSize / 1024)} KB in all). A tool configured to send large custom headers (ANTHROPIC_CUSTOM_HEADERS, a long cookie) should send smaller ones.`;
}

/** The raw HTTP answer: the socket has no ServerResponse, and the connection cannot go on. */
export function rawAnswer(status: string, body: string, headers: Record<string, string>): string {
  let head = `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}\r\n${body}`;
}
