/**
 * The request-log record of one request, filled in as the request travels and handed to the log
 * once at the end. It never holds a service key or credential, and holds bodies only when
 * settings.logBodies asks for them (redacted by the caller).
 */
import { randomUUID } from 'node:crypto';
import type { LogAttempt, LogUsage, RequestLogEntry } from '../log/entry.js';
import type { ProxyCaller, ProxyRoute } from './proxy-handler.js';

const DIALECTS: Readonly<Record<ProxyRoute['endpoint'], RequestLogEntry['dialect']>> = {
  chat: 'chat',
  responses: 'responses',
  messages: 'messages',
  count_tokens: 'messages',
  responses_item: 'none',
  models: 'none',
  model: 'none',
  transcriptions: 'none',
  conversations: 'none',
};

/** Milliseconds since a performance.now() reading, to 0.01 ms. */
export function msSince(since: number, now = performance.now()): number {
  return Math.round((now - since) * 100) / 100;
}

export class RequestRecord {
  readonly entry: RequestLogEntry;
  /** performance.now() when the request arrived. */
  readonly t0: number;
  private sent = false;

  constructor(route: ProxyRoute, caller: ProxyCaller, t0: number) {
    this.t0 = t0;
    this.entry = {
      id: randomUUID(),
      time: new Date().toISOString(),
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

  attempt(a: LogAttempt): void {
    this.entry.attempts.push(a);
  }

  skipped(target: string, code: string, reason: string): void {
    this.entry.attempts.push({ target, status: 0, latencyMs: 0, errorCode: code, skipped: reason });
  }

  firstByte(): void {
    if (this.entry.ttfbMs === undefined) this.entry.ttfbMs = this.elapsed();
  }

  answeredBy(provider: string, model: string): void {
    this.entry.provider = provider;
    this.entry.model = model;
  }

  usage(u: LogUsage | undefined): void {
    if (u) this.entry.usage = u;
  }

  /** Complete the record and hand it to the log (once). */
  finish(log: (entry: RequestLogEntry) => void, status: number, errorCode?: string): void {
    if (this.sent) return;
    this.sent = true;
    const e = this.entry;
    e.status = status;
    e.latencyMs = this.elapsed();
    if (errorCode !== undefined) e.errorCode = errorCode;
    e.fallback = e.attempts.length > 1 && e.attempts.some((a) => a.target !== e.attempts[0]!.target);
    try {
      log(e);
    } catch {
      // logging never fails a request
    }
  }
}
