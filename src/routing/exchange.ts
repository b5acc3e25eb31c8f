/** Everything one request's handling needs, passed around as one object. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/schema.js';
import type { BodyBudget } from './body-budget.js';
import type { ClientAbort } from './client-abort.js';
import type { Cooldowns } from './cooldowns.js';
import type { ToolUseIdMemory } from './tool-use-id-rewrites.js';
import type { UpstreamFits } from './upstream-fits.js';
import type { ProofIssuers } from './proof-issuers.js';
import type { ProxyDeps, ProxyRoute } from './proxy-handler.js';
import type { ReasoningMemory } from './reasoning-cache.js';
import type { RequestRecord } from './request-log.js';
import type { ResponseStore } from './response-store.js';
import type { RoutingServices } from './services.js';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  route: ProxyRoute;
  deps: ProxyDeps;
  services: RoutingServices;
  /** Config snapshot taken when the request arrived. */
  config: Config;
  record: RequestRecord;
  /** Aborted when the client's response closes before it finished. */
  abort: ClientAbort;
  /** Reasoning proof remembered for the request's own service key. */
  cache: ReasoningMemory;
  /** Which custom Messages endpoint issued a thinking signature (proof-issuers.ts). */
  issuers: ProofIssuers;
  /** What Chat upstreams said they take: output limits, no reasoning fields (chat-fit.ts). */
  upstreamFits: UpstreamFits;
  /** The tool_use id rewrites a (service key, target) pair's last Messages passthrough needed (tool-use-id-rewrites.ts). */
  toolUseIds: ToolUseIdMemory;
  /** Converted answers to Responses clients, for previous_response_id (response-store.ts). */
  responses: ResponseStore;
  /** Targets that failed moments ago, which groups try last (cooldowns.ts). */
  cooldowns: Cooldowns;
  /** All request bodies held at once, and this request's part of them (body-budget.ts). */
  bodyBudget: BodyBudget;
  bodyBytes: number;
}

/** Upstream timeouts from the settings. */
export function timeouts(config: Config): { connectTimeoutMs: number; headersTimeoutMs: number; idleTimeoutMs: number } {
  const s = config.settings;
  return { connectTimeoutMs: s.connectTimeoutMs, headersTimeoutMs: s.headersTimeoutMs, idleTimeoutMs: s.idleTimeoutMs };
}

/**
 * A stream's body timeout: its first event may take as long as headers may, since some servers
 * send their headers at once and their first token after the prefill (stream-relay.ts).
 */
export function streamBodyTimeout(config: Config): number {
  const s = config.settings;
  return Math.max(s.idleTimeoutMs, s.headersTimeoutMs);
}
