/**
 * Seam between the HTTP server and the routing core. The server authenticates, works out the
 * route, and hands the raw Node request/response to the handler, which owns everything after:
 * body checks, target resolution (groups and fallback), policy, passthrough or conversion, the
 * upstream call, the answer in the client's dialect, and the request-log record.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/schema.js';
import type { RequestLogEntry } from '../log/entry.js';
import { chatCodec } from '../protocols/chat/index.js';
import { messagesCodec } from '../protocols/messages/index.js';
import { responsesCodec } from '../protocols/responses/index.js';
import { createModelCatalog, type ModelCatalog } from '../providers/models.js';
import { StatedControls } from '../providers/stated-controls.js';
import { resolveProvider } from '../providers/registry.js';
import { upstreamAnswer } from '../providers/upstream-answer.js';
import { closeUpstreamPools, shedBurstConnections, upstreamRequest, useUpstreamProxy } from '../providers/upstream-client.js';
import { proxyStatus, type ProxyStatus } from '../providers/upstream-proxy.js';
import { createRoutingEngine } from './engine.js';
import type { ProofIssuers } from './proof-issuers.js';
import type { RoutingServices } from './services.js';

export type ProxyEndpoint =
  | 'chat' // POST protocol-a/v1/chat/completions
  | 'responses' // POST protocol-a/v1/responses
  | 'responses_item' // GET/DELETE protocol-a/v1/responses/{id}, GET …/input_items, POST …/cancel
  | 'models' // GET …/models
  | 'model' // GET …/models/{id}
  | 'transcriptions' // POST protocol-a/v1/audio/transcriptions
  | 'conversations' // protocol-a/v1/conversations… (forwarded to OpenAI)
  | 'messages' // POST protocol-b/v1/messages
  | 'count_tokens' // POST protocol-b/v1/messages/count_tokens
  | 'input_tokens'; // POST protocol-a/v1/responses/input_tokens

export interface ProxyRoute {
  /** a = OpenAI dialects (error shape A), b = Anthropic Messages (error shape B). */
  protocol: 'a' | 'b';
  /** Group slug for /g/<slug>/… bases; undefined for provider bases. */
  group?: string;
  endpoint: ProxyEndpoint;
}

export interface ProxyCaller {
  keyId: string;
  keyName: string;
}

export interface ProxyDeps {
  /** Current configuration (hot-reloaded by the daemon; always a valid snapshot). */
  config(): Config;
  /** Provider/endpoint credential from the daemon's in-memory cache (env > keychain > file). */
  credential(slug: string): string | undefined;
  /** Why a provider's credential from the environment is unusable (asked only when it has none). */
  credentialProblem?(slug: string): string | undefined;
  /** Enqueue a log record; never throws, never blocks. */
  log(entry: RequestLogEntry): void;
  /** Issuers of relayed signatures, which the daemon keeps across restarts; a fresh set when absent. */
  issuers?: ProofIssuers;
}

export interface ProxyHandler {
  handle(req: IncomingMessage, res: ServerResponse, route: ProxyRoute, caller: ProxyCaller): Promise<void>;
  /** The reasoning controls model lists stated (effort levels, thinking mode), which requests read: the admin API's catalog writes here too. */
  statedControls?: StatedControls;
  /** Close upstream connection pools (daemon shutdown). */
  close(): Promise<void>;
  /** Close idle upstream pools a burst left with many connections (upstream-client.ts). */
  shedIdleConnections?(): Promise<number>;
  /** Requests being answered now, streams included (the idle collector waits for none). */
  requestsInFlight?(): number;
  /** Bytes of request bodies held now, all requests together (body-budget.ts). */
  bodyBytesHeld?(): number;
  /**
   * The drain timeout is up: end every stream that has started with a final error event in its
   * client's dialect, answer every request still waiting (for its body or its upstream) with a
   * 503 in its protocol's shape — both with code `shutting_down` — and drop their upstream calls.
   * Returns how many requests it ended.
   */
  endInFlight?(): number;
  /**
   * Keys were revoked (or removed): end the requests of every key not in `active` — a started
   * stream with a final `invalid_api_key` error event, a request still waiting with a 401 — and
   * drop their upstream calls. Returns how many it ended.
   */
  endRevoked?(active: ReadonlySet<string>): number;
  /** Apply a changed config's settings that live outside a request (the outbound proxy). */
  reconfigure?(config: Config): void;
  /** The outbound proxy in use, as status shows it (no credentials). */
  upstreamProxy?(): ProxyStatus;
}

/**
 * The handler the daemon uses. `overrides` replaces individual services (tests point them at
 * fakes; everything else is the real provider modules and codecs).
 */
export function createProxyHandler(deps: ProxyDeps, overrides: Partial<RoutingServices> = {}): ProxyHandler {
  const registryDeps = { config: deps.config, credential: deps.credential, ...(deps.credentialProblem ? { credentialProblem: deps.credentialProblem } : {}) };
  let catalog: ModelCatalog | undefined;
  const statedControls = new StatedControls();
  const services: RoutingServices = {
    resolveProvider: (slug) => resolveProvider(slug, registryDeps),
    upstreamRequest,
    upstreamAnswer,
    listModels: (signal, only) => (catalog ??= createModelCatalog({ ...registryDeps, stated: statedControls })).listing(signal, only),
    // what the lists read so far stated: a request never waits for a list
    statedControls: (slug, model) => statedControls.of(slug, model),
    // loaded on first use: the tokenizer behind local estimates is only needed for count_tokens
    countTokens: async (target, model, req, signal) => (await import('../providers/count-tokens.js')).countTokens(target, model, req, signal),
    codecs: { chat: chatCodec, responses: responsesCodec, messages: messagesCodec },
    close: () => closeUpstreamPools(),
    shedIdleConnections: () => shedBurstConnections(),
    ...overrides,
  };
  // the daemon's environment at start, with the settings of the moment (upstream-proxy.ts)
  let proxySettings = deps.config().settings;
  let proxyPlan = useUpstreamProxy(proxySettings);
  const engine = createRoutingEngine(deps, services);
  return {
    ...engine,
    reconfigure: (config) => {
      engine.reconfigure?.(config);
      proxySettings = config.settings;
      proxyPlan = useUpstreamProxy(proxySettings);
    },
    upstreamProxy: () => proxyStatus(proxyPlan, proxySettings.upstreamProxy),
    statedControls,
  };
}
