/**
 * Upstream failures as UpstreamErrors with a stable code, whatever undici or the socket said.
 * Messages name the origin only (never a path, a key or a proxy's password), and say what to do
 * where there is something to do: a proxy that refused, a certificate a TLS-inspecting network
 * re-signed.
 */
import { NETWORK_CHANGED } from './stranded-connections.js';
import { displayOrigin } from './base-url.js';

export type UpstreamErrorCode = 'upstream_unreachable' | 'upstream_timeout' | 'upstream_reset' | 'upstream_invalid_response' | 'aborted';

export class UpstreamError extends Error {
  readonly code: UpstreamErrorCode;
  /** The socket's own code when it could not connect (ECONNREFUSED …): what a hint depends on. */
  readonly socketCode: string | undefined;
  constructor(code: UpstreamErrorCode, message: string, socketCode?: string) {
    super(message);
    this.name = 'UpstreamError';
    this.code = code;
    this.socketCode = socketCode;
  }
  /** HTTP status to answer with (499 = the client went away). */
  get status(): number {
    return this.code === 'upstream_timeout' ? 504 : this.code === 'aborted' ? 499 : 502;
  }
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED', 'HPE_INVALID_CONSTANT', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

/** Errors of decoding a compressed answer (upstream-decoding.ts), with the coding that failed. */
const undecodable = new WeakMap<object, string>();

export function markUndecodable(err: object, coding: string): void {
  if (!undecodable.has(err)) undecodable.set(err, coding);
}

/** The coding a compressed answer failed to decode in, when that is what `err` is. */
export function undecodableCoding(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? undecodable.get(err) : undefined;
}

export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | null;
  if (e && typeof e.code === 'string') return e.code;
  if (e && e.cause && typeof e.cause.code === 'string') return e.cause.code;
  return undefined;
}

/** The proxy a request went through, as messages name it. */
export interface ProxyVia {
  display: string;
  source: string;
}

const UNTRUSTED_CERT = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/** The status a proxy answered a tunnel request with (undici says it only in its message). */
function proxyRefusal(err: unknown): number | undefined {
  const message = (err as { message?: unknown } | null)?.message;
  if (typeof message !== 'string') return undefined;
  const m = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(message) ?? /^Proxy Authentication Required \((407)\)$/.exec(message);
  return m ? Number(m[1]) : undefined;
}

const REFUSAL_REASONS: Record<number, string> = {
  407: 'it wants a user and password it accepts, given in the proxy URL as http://user:password@host:port',
  403: 'it does not allow that host',
};

/**
 * Any error from a request or from reading its body, as an UpstreamError. Exported so code that
 * consumes a response body (streams) maps body errors the same way. `via`: the request went through
 * this proxy, so a connection that failed was one to the proxy, and a refusal was the proxy's.
 */
export function toUpstreamError(
  err: unknown,
  url: string,
  timeouts?: { connectTimeoutMs?: number; headersTimeoutMs?: number; idleTimeoutMs?: number },
  via?: ProxyVia,
): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const where = displayOrigin(url);
  const code = errorCode(err);
  const name = (err as { name?: unknown } | null)?.name;
  const proxy = via ? `the proxy ${via.display} (${via.source})` : '';
  const refused = via ? proxyRefusal(err) : undefined;
  if (via && refused !== undefined) {
    const reason = REFUSAL_REASONS[refused] ?? (refused >= 500 ? 'it could not reach that host' : 'it refused');
    return new UpstreamError('upstream_unreachable', `The proxy ${via.display} (${via.source}) answered ${refused} when asked for ${where}: ${reason}.`);
  }
  const coding = undecodableCoding(err);
  if (coding !== undefined) {
    return new UpstreamError('upstream_invalid_response', `${where} sent a ${coding} answer that could not be decoded (${reasonOf(err)}).`);
  }
  if (name === 'AbortError' || code === 'UND_ERR_ABORTED' || code === 'ABORT_ERR') {
    return new UpstreamError('aborted', `The request to ${where} was aborted.`);
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    const target = via ? `${proxy} on the way to ${where}` : where;
    return new UpstreamError('upstream_timeout', `Connecting to ${target} timed out${ms(timeouts?.connectTimeoutMs)}.`);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new UpstreamError('upstream_timeout', `${where} sent no response headers${ms(timeouts?.headersTimeoutMs, 'within')}.`);
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new UpstreamError('upstream_timeout', `${where} went silent mid-response${ms(timeouts?.idleTimeoutMs, 'for')}.`);
  }
  if (code === NETWORK_CHANGED) {
    return new UpstreamError('upstream_reset', `The connection to ${where} was cut: the network changed and this machine no longer has the address it was made from.`);
  }
  if (name === 'HTTPParserError' || code === 'UND_ERR_HEADERS_OVERFLOW' || (code?.startsWith('HPE_') === true && !RESET.has(code))) {
    // the server answered, but not in HTTP undici can read (a 70 KB header, `HTTP/1.1 2000`): it
    // was reached, so "could not connect" would send its user looking at the network
    const what = code ?? reasonOf(err);
    return new UpstreamError('upstream_invalid_response', `${where} sent a response that is not valid HTTP (${what}).`);
  }
  if (code && RESET.has(code)) {
    return new UpstreamError('upstream_reset', `${where} closed the connection before the response was complete (${code}).`);
  }
  if (code && UNTRUSTED_CERT.has(code)) {
    // the usual cause on a company network: a proxy or firewall that re-signs TLS with its own CA
    const through = via ? `, reached through ${proxy},` : '';
    return new UpstreamError(
      'upstream_unreachable',
      `The certificate of ${where}${through} is not trusted (${code}). If your network inspects TLS, start svc-proxy with NODE_EXTRA_CA_CERTS naming its CA certificate file.`,
    );
  }
  if (code && UNREACHABLE.has(code)) {
    if (via && !code.startsWith('ERR_TLS') && code !== 'CERT_HAS_EXPIRED') {
      return new UpstreamError('upstream_unreachable', `Could not connect to ${proxy} on the way to ${where} (${code}).`);
    }
    return new UpstreamError('upstream_unreachable', `Could not connect to ${where} (${code}).`, code);
  }
  return new UpstreamError('upstream_unreachable', `The request to ${where}${via ? ` through ${proxy}` : ''} failed${code ? ` (${code})` : ''}.`);
}

/** undici's own words for a parse failure (its HTTPParserError may carry no code). */
function reasonOf(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message.replace(/\s+/g, ' ').slice(0, 120) : 'unreadable response';
}

function ms(value: number | undefined, word = 'after'): string {
  return value === undefined ? '' : ` ${word} ${value} ms`;
}

