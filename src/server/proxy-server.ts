/**
 * The HTTP front door: raw node:http with a hand-written dispatcher for the proxy bases (the hot
 * path: host check, route match, key check, then straight to the routing core); everything else
 * (/health, /admin/*, 404s) goes to `other` (admin/lazy-listener.ts). Drains gracefully on stop;
 * what is still in flight at the deadline gets an answer from the routing core
 * (ProxyHandler.endInFlight).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Settings } from '../config/schema.js';
import type { KeyVerifier } from '../keys/verifier.js';
import type { RequestLogEntry } from '../log/entry.js';
import type { ProxyHandler, ProxyRoute } from '../routing/proxy-handler.js';
import { preflightEntry, refusedEntry, type Refusal } from '../routing/request-log.js';
import { authenticate } from './auth.js';
import { CorsPolicy, isPreflight } from './cors.js';
import { overloaded, OVERLOADED_ADVICE } from '../routing/body-budget.js';
import { closeAfterAnswer, tooLarge } from '../routing/request-body.js';
import { HEADERS_TOO_LARGE, headersTooLargeMessage } from './header-overflow.js';
import { MALFORMED_REQUEST, malformedRequestMessage } from './malformed-request.js';
import { answerInFlight, bareAnswer, rawAnswer, requestLineOf, targetPath } from './parser-refusal.js';
import { REQUEST_TIMEOUT, requestTimeoutMessage } from './request-timeout.js';
import { HostGuard } from './host-guard.js';
import { isProxyPath, matchProxyPath, protocolOfPath } from './route-table.js';
import { sendAdminError, sendProtocolError, type Protocol } from './send-error.js';
import { errorJson } from '../routing/respond.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => unknown;

export interface ProxyServerOptions {
  verifier: KeyVerifier;
  proxy: ProxyHandler;
  /** Everything that is not a proxy base: /health, /admin/*, and 404s. */
  other: NodeListener;
  settings: Settings;
  /** Report an unexpected error (daemon log). Never given request bodies or credentials. */
  onError(err: unknown, context: string): void;
  /**
   * The request log, for requests on the proxy bases refused here, before the routing handler
   * (which logs all the others). Never throws, never blocks.
   */
  log?(entry: RequestLogEntry): void;
}

/** After the drain timeout, how long streams ended with a final event get to flush it. */
const STREAM_END_GRACE_MS = 500;

const UNAUTHORIZED_HEADERS = { 'www-authenticate': 'Bearer realm="svc-proxy"' };

export class ProxyServer {
  readonly server: Server;
  private readonly opts: ProxyServerOptions;
  private readonly cors: CorsPolicy;
  private readonly hostGuard: HostGuard;
  private boundHost = '127.0.0.1';
  private port = 0;
  private draining = false;

  constructor(opts: ProxyServerOptions) {
    this.opts = opts;
    this.cors = new CorsPolicy(opts.settings.corsOrigins);
    this.hostGuard = new HostGuard(0, this.boundHost, opts.settings.allowedHosts);
    this.server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => this.onRequest(req, res));
    // `Expect: 100-continue` (curl sends it for bodies over 1 MB): node would send the 100 unasked,
    // and the client would upload a body only to be refused; here the 100 goes out only once the
    // request passed every check that needs no body (a body over the limit is 413 at once).
    this.server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      // an answer without the 100 is final, and nobody knows whether the body follows it: the
      // connection cannot carry another request (goOn takes this back)
      res.setHeader('connection', 'close');
      this.onRequest(req, res, true);
    });
    this.server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer; reason?: string }, socket) => this.onClientError(err, socket));
  }

  /**
   * Node gave up on what a connection sent (its parser refused it, or it came too slowly): answer
   * if the socket still can and no answer is under way on it, never crash.
   */
  private onClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer; reason?: string }, socket: Duplex): void {
    if (!socket.writable || socket.writableEnded) {
      socket.destroy();
      return;
    }
    const inFlight = answerInFlight(socket);
    if (inFlight?.req.complete) {
      // the refused bytes are a later (pipelined) request's: the answer in flight goes out whole,
      // with nothing before or inside it, and the connection closes after it
      if (!closingAfterAnswer.has(socket)) {
        closingAfterAnswer.add(socket);
        inFlight.once('close', () => socket.end());
      }
      return;
    }
    if (inFlight?.headersSent) {
      // its own body broke after its answer started: cut short as node does, never added to
      socket.destroy();
      return;
    }
    const refused = refusalOf(err, this.server);
    if (refused === undefined) {
      socket.end(bareAnswer('400 Bad Request'));
      return;
    }
    const [status, code, message] = refused;
    // a request node had handed over (a body that breaks the chunked encoding, or too slow) is the
    // routing handler's to log; one the parser stopped before it existed is logged here
    socket.end(inFlight === undefined ? this.parserRefusal(err.rawPacket, status, code, message) : refusalOfRequest(inFlight.req.url, status, code, message));
  }

  /**
   * The answer to a request node's parser refused: in the base's shape and logged when the request
   * line names a proxy base, else the bare status (parser-refusal.ts).
   */
  private parserRefusal(raw: Buffer | undefined, status: string, code: string, message: string): string {
    const line = requestLineOf(raw);
    if (!line || !isProxyPath(line.path)) return bareAnswer(status);
    const statusCode = Number(status.slice(0, 3));
    const refusal = beforeRouting(line.path, line.method, statusCode, code);
    const headers: Record<string, string> = {};
    const log = this.opts.log;
    if (log !== undefined) {
      const entry = refusedEntry(refusal);
      headers['x-svc-request-id'] = entry.id;
      try {
        log(entry);
      } catch {
        // logging never fails a request
      }
    }
    return rawAnswer(status, errorJson(protocolOfPath(line.path), { status: statusCode, code, message }), headers);
  }

  /**
   * Listen on host:port (0: any free port); resolves with the port. `beforeServing(port)` runs once
   * the port is bound and before any connection is handled: node emits 'listening' in the same turn
   * as the bind, and takes connections only in a later one. If it throws, the port is let go and
   * listen rejects with its error.
   */
  listen(port: number, host: string, beforeServing?: (port: number) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        this.boundHost = host;
        this.port = (this.server.address() as AddressInfo).port;
        this.reconfigure(this.opts.settings);
        try {
          beforeServing?.(this.port);
        } catch (err) {
          this.server.close();
          reject(err as Error);
          return;
        }
        resolve(this.port);
      });
    });
  }

  /** Apply changed settings (hot reload). Host/port changes need a restart; the rest applies now. */
  reconfigure(settings: Settings): void {
    this.opts.settings = settings;
    this.hostGuard.configure(this.port, this.boundHost, settings.allowedHosts);
    this.cors.configure(settings.corsOrigins);
  }

  /**
   * Stop accepting, let in-flight requests finish for up to `timeoutMs`, then end the streams
   * still running with a final event in their dialect and answer the requests still waiting with
   * a 503 (ProxyHandler.endInFlight), and close whatever is left. Returns how many connections were still busy and had to be cut.
   *
   * Node keeps a kept-alive connection open after its last response, so connections are closed
   * as soon as they turn idle (polled here, which keeps the request path free of bookkeeping).
   */
  async drain(timeoutMs: number): Promise<number> {
    this.draining = true;
    let closed = false;
    const allClosed = new Promise<void>((resolve) =>
      this.server.close(() => {
        closed = true;
        resolve();
      }),
    );
    const deadline = Date.now() + timeoutMs;
    while (!closed && Date.now() < deadline) {
      this.server.closeIdleConnections();
      await Promise.race([allClosed, new Promise((r) => setTimeout(r, 25))]);
    }
    let cut = 0;
    if (!closed && this.opts.proxy.endInFlight && this.opts.proxy.endInFlight() > 0) {
      // streams still running got their final event, waiting requests their 503: give those a moment to reach the clients
      const grace = Date.now() + STREAM_END_GRACE_MS;
      while (!closed && Date.now() < grace) {
        this.server.closeIdleConnections();
        await Promise.race([allClosed, new Promise((r) => setTimeout(r, 10))]);
      }
    }
    if (!closed) {
      cut = await new Promise<number>((resolve) => this.server.getConnections((err, n) => resolve(err ? 0 : n)));
      this.server.closeAllConnections();
    }
    await allClosed;
    return cut;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse, expectsContinue = false): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);

    if (this.draining) {
      res.setHeader('connection', 'close');
      this.refuse(res, beforeRouting(path, req.method, 503, 'shutting_down'), protocolOfPath(path), 'svc-proxy is shutting down; retry in a moment.');
      return;
    }
    const host = req.headers.host;
    // No Host at all is refused as well: HTTP/1.0 allows leaving it out (node's parser answers an
    // HTTP/1.1 request without one with 400), and a missing name is no more ours than a foreign one.
    if (host === undefined || !this.hostGuard.allows(host)) {
      this.refuse(
        res,
        beforeRouting(path, req.method, 403, 'forbidden_host'),
        protocolOfPath(path),
        `${host === undefined ? 'A request without a Host header' : `Host "${host.slice(0, 100)}"`} is not allowed (DNS-rebinding guard). Use 127.0.0.1 or localhost, or add it to settings.allowedHosts in config.json.`,
      );
      return;
    }
    if (!isProxyPath(path)) {
      if (expectsContinue) goOn(res);
      this.callOther(req, res);
      return;
    }
    this.proxyRequest(req, res, path, expectsContinue);
  }

  private proxyRequest(req: IncomingMessage, res: ServerResponse, path: string, expectsContinue: boolean): void {
    if (this.cors.enabled) {
      const preflight = this.cors.apply(req, res);
      if (preflight !== undefined) return this.loggedPreflight(req, path, preflight);
    }
    const method = req.method ?? 'GET';
    const match = matchProxyPath(path, method);
    const protocol = match.ok ? match.route.protocol : match.protocol;
    const auth = authenticate(req, this.opts.verifier);
    if (!auth.ok) {
      // no key id: the key is unknown (and what was presented is never logged); a preflight without
      // corsOrigins comes here too, marked so, as the page's fetch fails on it
      const route = isPreflight(req) ? askedRoute(req, path) : match.route;
      const refusal: Refusal = { path, status: 401, code: auth.code, ...(route ? { route } : {}) };
      if (isPreflight(req)) refusal.preflight = { origin: req.headers.origin };
      this.refuse(res, refusal, protocol, auth.message, UNAUTHORIZED_HEADERS);
      return;
    }
    const caller = { keyId: auth.key.id, keyName: auth.key.name };
    if (!match.ok) {
      // a 405 names the endpoint it hit; a 404 has none
      const refusal: Refusal = match.route ? { path, route: match.route, caller, status: match.status, code: match.code } : { path, caller, status: match.status, code: match.code };
      this.refuse(res, refusal, protocol, match.message, match.allow ? { allow: match.allow } : {});
      return;
    }
    if (expectsContinue) {
      const limit = this.opts.settings.bodyLimitBytes;
      const declared = req.headers['content-length'];
      const budget = this.opts.settings.bodyBudgetBytes;
      if (declared !== undefined) {
        // over the limit, or more than the bodies held now leave room for: the body is not uploaded
        const over = Number(declared) > limit;
        if (over || (this.opts.proxy.bodyBytesHeld?.() ?? 0) + Number(declared) > budget) {
          // in case the client sends its body anyway (some stop waiting for the 100 after a while)
          closeAfterAnswer(req, res);
          const err = over ? tooLarge(limit) : overloaded(budget);
          this.refuse(res, { path, route: match.route, caller, status: err.status, code: err.code }, protocol, err.message, over ? {} : OVERLOADED_ADVICE);
          return;
        }
      }
      goOn(res);
    }
    let pending: Promise<void>;
    try {
      pending = this.opts.proxy.handle(req, res, match.route, caller);
    } catch (err) {
      this.failed(res, protocol, err);
      return;
    }
    pending.catch((err: unknown) => this.failed(res, protocol, err));
  }

  /**
   * Answer a request refused before the routing handler, in its base's error shape; on a proxy
   * base it goes into the request log too (README: every proxied request is logged), with what is
   * known of it. Only refusals come here, so the request path pays nothing for the record.
   */
  private refuse(res: ServerResponse, refusal: Refusal, protocol: Protocol, message: string, headers: Record<string, string> = {}): void {
    const log = this.opts.log;
    if (log !== undefined && isProxyPath(refusal.path)) {
      const entry = refusedEntry(refusal);
      headers = { ...headers, 'x-svc-request-id': entry.id };
      try {
        log(entry);
      } catch {
        // logging never fails a request
      }
    }
    sendProtocolError(res, protocol, refusal.status, refusal.code, message, headers);
  }

  /** A preflight the CORS policy answered goes into the request log as any request does: one entry, no body. */
  private loggedPreflight(req: IncomingMessage, path: string, status: number): void {
    const log = this.opts.log;
    if (log === undefined) return;
    const route = askedRoute(req, path);
    try {
      log(preflightEntry({ path, status, origin: req.headers.origin, ...(route ? { route } : {}) }));
    } catch {
      // logging never fails a request
    }
  }

  private failed(res: ServerResponse, protocol: 'a' | 'b', err: unknown): void {
    this.opts.onError(err, 'proxy handler');
    sendProtocolError(res, protocol, 500, 'internal_error', 'svc-proxy hit an internal error; details are in the daemon log.');
  }

  private callOther(req: IncomingMessage, res: ServerResponse): void {
    try {
      const result = this.opts.other(req, res);
      if (result instanceof Promise) result.catch((err: unknown) => this.otherFailed(res, err));
    } catch (err) {
      this.otherFailed(res, err);
    }
  }

  /** /health and /admin/* speak the admin API's error shape, not a protocol's. */
  private otherFailed(res: ServerResponse, err: unknown): void {
    this.opts.onError(err, 'admin API');
    sendAdminError(res, 500, 'internal_error', 'svc-proxy hit an internal error; details are in the daemon log.');
  }
}

/** The route a preflight asks about: its path with the method it asks for (not OPTIONS). */
function askedRoute(req: IncomingMessage, path: string): ProxyRoute | undefined {
  const match = matchProxyPath(path, String(req.headers['access-control-request-method']));
  return match.ok ? match.route : undefined;
}

/**
 * A refusal made before the route is looked up (a foreign Host, shutting down), with the route its
 * path names, if any, for the request log: only refused requests pay for this second match.
 */
/** Sockets left to close once the answer in flight on them is done (a later request on them was refused). */
const closingAfterAnswer = new WeakSet<Duplex>();

/** The status line, code and message node's refusal gets; undefined: not one of the parser's, the bare 400. */
function refusalOf(err: NodeJS.ErrnoException & { reason?: string }, server: Server): [string, string, string] | undefined {
  if (err.code === 'HPE_HEADER_OVERFLOW') return ['431 Request Header Fields Too Large', HEADERS_TOO_LARGE, headersTooLargeMessage()];
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['408 Request Timeout', REQUEST_TIMEOUT, requestTimeoutMessage(server.headersTimeout, server.requestTimeout)];
  if (err.code?.startsWith('HPE_')) return ['400 Bad Request', MALFORMED_REQUEST, malformedRequestMessage(err.reason)];
  return undefined;
}

/** The answer to a request node had handed over and then gave up on: in its base's shape, not logged here. */
function refusalOfRequest(url: string | undefined, status: string, code: string, message: string): string {
  const path = url === undefined ? undefined : targetPath(url);
  if (path === undefined || !isProxyPath(path)) return bareAnswer(status);
  return rawAnswer(status, errorJson(protocolOfPath(path), { status: Number(status.slice(0, 3)), code, message }), {});
}

function beforeRouting(path: string, method: string | undefined, status: number, code: string): Refusal {
  const route = isProxyPath(path) ? matchProxyPath(path, method ?? 'GET').route : undefined;
  return route ? { path, route, status, code } : { path, status, code };
}

/**
 * An `Expect: 100-continue` request passed the checks: the client may send its body, and the
 * connection may be kept (without a Connection header its answer persists as HTTP/1.1 does).
 */
function goOn(res: ServerResponse): void {
  res.removeHeader('connection');
  res.writeContinue();
}
