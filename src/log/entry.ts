/** One request-log record. Never holds a service key, a credential, or (unless logBodies) a body. */

export interface LogAttempt {
  /** `provider/model` as tried, e.g. "openai/gpt-5". */
  target: string;
  /** HTTP status the upstream answered (0 = no answer: connection error, timeout, or skipped). */
  status: number;
  latencyMs: number;
  errorCode?: string;
  /** Set when the target was skipped by policy before anything was sent (the reason). */
  skipped?: string;
  /** The call went on with the answer before it, which the upstream had paused (`pause_turn`). */
  continued?: true;
}

export interface LogUsage {
  input?: number;
  output?: number;
  cached?: number;
  reasoning?: number;
}

export interface RequestLogEntry {
  id: string;
  /** ISO time the request arrived. */
  time: string;
  keyId?: string;
  keyName?: string;
  /** "provider" for provider bases, "group:<slug>" for group bases. */
  base: string;
  /** chat | responses | messages | count_tokens | models | model | transcriptions | conversations[.create|.retrieve|.update|.delete|.items.list|.items.create|.items.retrieve|.items.delete] | stored_response[.retrieve|.input_items|.delete|.cancel] | unknown (refused before its route was known; see `path`) */
  endpoint: string;
  /** The request path without its query, for a request refused before its route was known (404, 405, 403 …). */
  path?: string;
  /**
   * A browser's CORS preflight (OPTIONS): `endpoint` is the one it asks about, `status` its answer
   * (204, 403 for an origin not in settings.corsOrigins, 401 without corsOrigins), `origin` the page's.
   */
  preflight?: true;
  origin?: string;
  /** Inbound dialect. */
  dialect: 'chat' | 'responses' | 'messages' | 'none';
  modelAsked?: string;
  attempts: LogAttempt[];
  /** Provider (or endpoint/local slug) and upstream model that answered. */
  provider?: string;
  model?: string;
  status: number;
  latencyMs: number;
  ttfbMs?: number;
  streamed: boolean;
  usage?: LogUsage;
  effortAsked?: string;
  effortSent?: string;
  errorCode?: string;
  /** Attempts went to more than one target (a second try at the same target, fitted to it, is not one). */
  fallback: boolean;
  requestBody?: unknown;
  responseBody?: unknown;
}

/**
 * Whether the entry's attempts are the providers a model list was answered without
 * (routing/list-failures.ts), not tries of a target: GET …/models, and a group's GET
 * …/models/{name}, which asks its targets' providers only for their context windows.
 */
export function attemptsAreUnlisted(e: Pick<RequestLogEntry, 'endpoint' | 'base'>): boolean {
  return e.endpoint === 'models' || (e.endpoint === 'model' && e.base.startsWith('group:'));
}
