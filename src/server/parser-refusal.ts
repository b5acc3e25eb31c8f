/**
 * A request node's HTTP parser refused (headers over its limit, a header that is not valid HTTP)
 * never becomes a request: the server's `clientError` gets the raw socket and the bytes the parser
 * had. On a proxy base it is answered as any refusal is — in the base's error shape with a stable
 * code, and an entry in the request log — so an SDK reports why instead of "400 status code (no
 * body)", and the tool's user finds it in `svc-proxy logs`. The base is read from the request line
 * at the start of those bytes; a request line not among them gets the bare status.
 */
import { ServerResponse } from 'node:http';

/** Longest request line read from the raw bytes (a longer one is not looked for). */
const MAX_REQUEST_LINE = 8 * 1024;

/**
 * Method and path (no query) of the request line that opens `raw`, if it opens with one. The
 * absolute form (`POST http://127.0.0.1:4000/protocol-a/v1/… HTTP/1.1`, as a client configured
 * with the daemon as its HTTP proxy sends it) has its path after the authority.
 */
export function requestLineOf(raw: Buffer | undefined): { method: string; path: string } | undefined {
  if (!raw) return undefined;
  const end = raw.indexOf('\r\n');
  const line = raw.subarray(0, end === -1 ? Math.min(raw.length, MAX_REQUEST_LINE) : Math.min(end, MAX_REQUEST_LINE)).toString('latin1');
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(line);
  if (!m) return undefined;
  const path = targetPath(m[2]!);
  return path === undefined ? undefined : { method: m[1]!, path };
}

/** The path (no query) of a request target, origin-form or absolute-form. */
export function targetPath(target: string): string | undefined {
  return /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/ ?#]*)?(\/[^ ?#]*)/.exec(target)?.[1];
}

/**
 * The answer node handed a request on this socket and has not finished sending, if any: node's own
 * `_httpMessage` (its default clientError answer reads it too: Node 20, 22, 24), taken only when it
 * is that, so a Node without it is one with no answer in flight.
 */
export function answerInFlight(socket: object): ServerResponse | undefined {
  const held = (socket as { _httpMessage?: unknown })._httpMessage;
  return held instanceof ServerResponse ? held : undefined;
}

/** The raw HTTP answer: the socket has no ServerResponse, and the connection cannot go on. */
export function rawAnswer(status: string, body: string, headers: Record<string, string>): string {
  let head = `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return `${head}\r\n${body}`;
}

/** The bare answer, off the proxy bases or without a request line to read the base from. */
export function bareAnswer(status: string): string {
  return `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`;
}
