/**
 * The request-log record of one request, filled in as the request travels and handed to the log
 * once at the end. It never holds a service key or credential, and holds bodies only when
 * settings.logBodies asks for them (redacted by the caller).
 */
import { randomUUID } from 'node:crypto';
import { isoNow } from '../util/iso-now.js';
import { attemptsAreUnlisted, type LogAttempt, type LogUsage, type RequestLogEntry } from '../log/entry.js';
import type { ProxyCaller, ProxyRoute } from './proxy-handler.js';

const DIALECTS: Readonly<Record<ProxyRoute['endpoint'], RequestLogEntry['dialect']>> = {
  chat: 'chat',
  responses: 'responses',
  messages: 'messages',
  count_tokens: 'messages',
  input_tokens: 'responses',
  responses_item: 'none',
  models: 'none',
  model: 'none',
  transcriptions: 'none',
  conversations: 'none',
};

/** What the server knows of a request it refused before the routing handler. */
export interface Refusal {
  /** Without the query string (which may hold anything, a key included). */
  path: string;
  /** When the path matched a route (a 401 on a known endpoint, a 413). */
  route?: ProxyRoute;
  /** When the key was checked and valid (a 404 or 405 after auth). Never the presented key. */
  caller?: ProxyCaller;
  status: number;
  code: string;
  /** A CORS preflight refused like any request (without settings.corsOrigins: 401), with the Origin it came from. */
  preflight?: { origin: string | undefined };
}

/** A CORS preflight the server answered itself (settings.corsOrigins): 204, or 403 for an origin not listed. */
export interface PreflightAnswer {
  path: string;
  /** The route of the method it asks about, when the path and that method match one. */
  route?: ProxyRoute;
  status: number;
  origin: string | undefined;
}

const MAX_LOGGED_PATH = 200;
const MAX_LOGGED_ORIGIN = 200;

/**
 * The log entry of a request refused before the routing handler (401, 403, 404, 405, an early
 * 413, 503 while stopping), or of a CORS preflight: complete at once, nothing was tried. Built only
 * on those paths, so the request path pays nothing for it.
 */
export function refusedEntry(r: Refusal): RequestLogEntry {
  return earlyEntry(r);
}

/** The log entry of a preflight answered by the CORS policy: marked, with its origin, as one refused before it is. */
export function preflightEntry(p: PreflightAnswer): RequestLogEntry {
  const answer = { path: p.path, status: p.status, preflight: { origin: p.origin }, ...(p.route ? { route: p.route } : {}) };
  return earlyEntry(p.status === 403 ? { ...answer, code: 'cors_origin_not_allowed' } : answer);
}

function earlyEntry(r: Omit<Refusal, 'code'> & { code?: string }): RequestLogEntry {
  const route = r.route;
  let group = route?.group;
  if (!route && r.path.startsWith('/g/')) {
    const end = r.path.indexOf('/', 3);
    group = (end === -1 ? r.path.slice(3) : r.path.slice(3, end)).slice(0, 80);
  }
  const entry: RequestLogEntry = {
    id: randomUUID(),
    time: isoNow(),
    ...(r.caller ? { keyId: r.caller.keyId, keyName: r.caller.keyName } : {}),
    base: group === undefined ? 'provider' : `group:${group}`,
    endpoint: route ? (route.endpoint === 'responses_item' ? 'stored_response' : route.endpoint) : 'unknown',
    dialect: route ? DIALECTS[route.endpoint] : 'none',
    attempts: [],
    status: r.status,
    latencyMs: 0,
    streamed: false,
    fallback: false,
    ...(r.code !== undefined ? { errorCode: r.code } : {}),
  };
  if (!route) entry.path = r.path.slice(0, MAX_LOGGED_PATH);
  if (r.preflight) {
    entry.preflight = true;
    if (r.preflight.origin !== undefined) entry.origin = r.preflight.origin.slice(0, MAX_LOGGED_ORIGIN);
  }
  return entry;
}

/** Milliseconds since a performance.now() reading, to 0.01 ms. */
export function msSince(since: number, now = performance.now()): number {
  return Math.round((now - since) * 100) / 100;
}

export class RequestRecord {
  readonly entry: RequestLogEntry;
  /** performance.now() when the request arrived. */
  readonly t0: number;
  /** Date.now() when the request arrived: `entry.time` is written from it at finish. */
  private readonly arrived: number;
  private sent = false;
  /**
   * The attempt under way (begun, not yet noted): a request the daemon ends meanwhile (a revoked
   * key, the drain deadline) logs it with the code it ended with, as the handler notes it only later.
   */
  private openTarget: string | undefined;
  private openAt = 0;
  private openStatus = 0;
  /**
   * A paused turn's continuations of the attempt under way (`continued`), which is noted only once
   * the answer is over: logged right after it. The one under way, if any, since when.
   */
  private goingOn: LogAttempt[] | undefined;
  private continuing: { target: string; at: number } | undefined;

  constructor(route: ProxyRoute, caller: ProxyCaller, t0: number) {
    this.t0 = t0;
    this.arrived = Date.now();
    this.entry = {
      id: randomUUID(),
      // made in finish(): a toISOString run cold, as a request that comes alone runs, costs ~15 µs
      // that would delay its upstream call and first byte (bench/FINDINGS.md, paced)
      time: '',
      keyId: caller.keyId,
      keyName: caller.keyName,
      base: route.group === undefined ? 'provider' : `group:${route.group}`,
      endpoint: route.endpoint === 'responses_item' ? 'stored_response' : route.endpoint,
      dialect: DIALECTS[route.endpoint],
      attempts: [],
      status: 0,
      latencyMs: 0,
      streamed: false,
      fallback: false,
    };
  }

  elapsed(now = performance.now()): number {
    return msSince(this.t0, now);
  }

  /** A call of `target` starts (performance.now() `at`); attempt() notes how it went. */
  begin(target: string, at: number): void {
    this.openTarget = target;
    this.openAt = at;
    this.openStatus = 0;
  }

  /** The call under way was answered with `status` (its body, a stream say, still to come). */
  upstreamAnswered(status: number): void {
    this.openStatus = status;
  }

  attempt(a: LogAttempt): void {
    // the entry is the log's once finished: what the handler notes while unwinding after a
    // request was ended for it (finish() noted the attempt under way) must not change it
    if (this.sent) return;
    this.openTarget = undefined;
    const attempts = this.entry.attempts;
    // a push onto the empty array reserves 17 slots, which the log's ring would keep for each of
    // its 2,000 records: most requests make one attempt, and `[a]` is its exact size
    if (attempts.length === 0) this.entry.attempts = [a];
    else attempts.push(a);
    if (this.goingOn !== undefined) this.noteGoingOn();
  }

  /** A call of `target` that continues the attempt under way (a paused turn) starts; continued() notes how it went. */
  beginContinued(target: string, at: number): void {
    this.continuing = { target, at };
  }

  /** How a continuation went (`continued: true`): logged after the attempt it continues. */
  continued(a: LogAttempt): void {
    if (this.sent) return;
    this.continuing = undefined;
    (this.goingOn ??= []).push(a);
  }

  private noteGoingOn(): void {
    for (const c of this.goingOn!) this.entry.attempts.push(c);
    this.goingOn = undefined;
  }

  skipped(target: string, code: string, reason: string): void {
    this.attempt({ target, status: 0, latencyMs: 0, errorCode: code, skipped: reason });
  }

  firstByte(): void {
    if (this.entry.ttfbMs === undefined && !this.sent) this.entry.ttfbMs = this.elapsed();
  }

  answeredBy(provider: string, model: string): void {
    if (this.sent) return;
    this.entry.provider = provider;
    this.entry.model = model;
  }

  usage(u: LogUsage | undefined): void {
    if (u && !this.sent) this.entry.usage = u;
  }

  /** Complete the record and hand it to the log (once). */
  finish(log: (entry: RequestLogEntry) => void, status: number, errorCode?: string): void {
    if (this.sent) return;
    const e = this.entry;
    const now = performance.now();
    // a continuation under way was cut with the request: after the attempt it continued
    const cut = this.continuing;
    if (cut !== undefined) {
      const a: LogAttempt = { target: cut.target, status: 0, latencyMs: msSince(cut.at, now), continued: true };
      if (errorCode !== undefined) a.errorCode = errorCode;
      this.continued(a);
    }
    if (this.openTarget !== undefined) {
      const open: LogAttempt = { target: this.openTarget, status: this.openStatus, latencyMs: msSince(this.openAt, now) };
      if (errorCode !== undefined) open.errorCode = errorCode;
      this.attempt(open);
    } else if (this.goingOn !== undefined) this.noteGoingOn();
    this.sent = true;
    e.time = isoNow(this.arrived);
    e.status = status;
    e.latencyMs = this.elapsed(now);
    if (errorCode !== undefined) e.errorCode = errorCode;
    // a model list's attempts are the providers whose lists failed, side by side: none fell back
    e.fallback = e.attempts.length > 1 && !attemptsAreUnlisted(e) && e.attempts.some((a) => a.target !== e.attempts[0]!.target);
    try {
      log(e);
    } catch {
      // logging never fails a request
    }
  }
}
