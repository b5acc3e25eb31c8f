/**
 * The routing engine behind the ProxyHandler seam: one entry per request, dispatch by endpoint,
 * and one place where errors become the client's protocol shape and every request is logged.
 */
import type { ServerResponse } from 'node:http';
import { AdvisedError } from './advised-error.js';
import { ProtocolError } from '../protocols/errors.js';
import { BodyBudget, releaseBody } from './body-budget.js';
import { ClientAbort } from './client-abort.js';
import { Cooldowns } from './cooldowns.js';
import { isOpenedEarly } from './early-stream.js';
import { handleConversations } from './conversations-endpoint.js';
import { handleCountTokens } from './count-tokens-endpoint.js';
import { handleInputTokens } from './input-tokens-endpoint.js';
import type { Exchange } from './exchange.js';
import { handleGenerate } from './generate.js';
import { LiveSet } from './live-set.js';
import { handleModel, handleModels } from './models-endpoint.js';
import type { ProxyDeps, ProxyHandler } from './proxy-handler.js';
import { ResponseStore } from './response-store.js';
import { UpstreamFits } from './upstream-fits.js';
import { ToolUseIdMemory } from './tool-use-id-rewrites.js';
import { ProofIssuers } from './proof-issuers.js';
import { ReasoningCache } from './reasoning-cache.js';
import { ClientGone, closeAfterAnswer } from './request-body.js';
import { RequestRecord } from './request-log.js';
import { sendError } from './respond.js';
import type { RoutingServices } from './services.js';
import { handleStoredResponse } from './stored-responses-endpoint.js';
import { endCommittedStreams } from './stream-relay.js';
import { handleTranscriptions } from './transcriptions-endpoint.js';

const SHUTTING_DOWN = {
  status: 503,
  code: 'shutting_down',
  message: 'svc-proxy is shutting down and could not wait for the end of this answer (settings.drainTimeoutMs); retry the request.',
};

const KEY_REVOKED = {
  status: 401,
  code: 'invalid_api_key',
  message: 'The service key of this request was revoked while it was being answered; the answer stops here.',
};

/** Answer the requests still waiting (for their body or their upstream) with `err` and drop their upstream calls. */
function answerWaiting(exchanges: Iterable<Exchange>, err: typeof SHUTTING_DOWN): number {
  let answered = 0;
  for (const x of exchanges) {
    if ((x.res.headersSent && !isOpenedEarly(x.res)) || x.res.destroyed) continue;
    // a stream whose headers went out early (early-stream.ts) gets its final error event instead,
    // after the 200 it had: the log says what the client got
    const early = x.res.headersSent;
    if (!early) x.res.setHeader('connection', 'close');
    sendError(x.res, x.route.protocol, err);
    x.record.finish(x.deps.log, early ? 200 : err.status, err.code);
    // the handler unwinds as if the client had left; its own answer and record are no-ops now
    x.abort.abort();
    answered++;
  }
  return answered;
}

/**
 * Streams just ended with their final event may still have an upstream call under way that is
 * not their relayed body (a paused turn's continuation): their requests' calls are dropped too.
 */
function dropEndedCalls(exchanges: Iterable<Exchange>): void {
  for (const x of exchanges) if (x.res.writableEnded) x.abort.abort();
}

const ABORT = Symbol('svc-proxy.abort');
type AbortableResponse = ServerResponse & { [ABORT]?: ClientAbort };

/** 'close' listener shared by all requests: the client left before the answer was complete. */
function abortIfUnfinished(this: AbortableResponse): void {
  if (!this.writableFinished) this[ABORT]?.abort();
}

export function createRoutingEngine(deps: ProxyDeps, services: RoutingServices): ProxyHandler {
  const cache = new ReasoningCache();
  const issuers = deps.issuers ?? new ProofIssuers();
  const upstreamFits = new UpstreamFits();
  const toolUseIds = new ToolUseIdMemory();
  const responses = new ResponseStore();
  const cooldowns = new Cooldowns();
  /**
   * Requests in the handler (one add and remove each): at the drain deadline, those whose answer
   * has not started get a 503 instead of a closed connection.
   */
  const inFlight = new LiveSet<Exchange>();
  const bodyBudget = new BodyBudget(deps.config().settings.bodyBudgetBytes);

  async function dispatch(x: Exchange): Promise<void> {
    switch (x.route.endpoint) {
      case 'chat':
      case 'responses':
      case 'messages':
        return handleGenerate(x, x.route.endpoint);
      case 'count_tokens':
        return handleCountTokens(x);
      case 'input_tokens':
        return handleInputTokens(x);
      case 'models':
        return handleModels(x);
      case 'model':
        return handleModel(x);
      case 'transcriptions':
        return handleTranscriptions(x);
      case 'responses_item':
        return handleStoredResponse(x);
      case 'conversations':
        return handleConversations(x);
    }
  }

  return {
    async handle(req, res, route, caller) {
      const record = new RequestRecord(route, caller, performance.now());
      res.setHeader('x-svc-request-id', record.entry.id);
      const abort = new ClientAbort();
      (res as AbortableResponse)[ABORT] = abort;
      res.once('close', abortIfUnfinished);
      const x: Exchange = { req, res, route, deps, services, config: deps.config(), record, abort, cache: cache.scope(caller.keyId), issuers, upstreamFits, toolUseIds, responses, cooldowns, bodyBudget, bodyBytes: 0 };
      const ticket = inFlight.add(x);
      try {
        await dispatch(x);
      } catch (err) {
        if (err instanceof ClientGone) {
          // a stream whose headers went out early (streamHeadersAfterMs) had its 200
          record.finish(deps.log, res.headersSent ? 200 : 499, 'client_disconnected');
          return;
        }
        if (err instanceof ProtocolError) {
          // reading stopped at a limit: do not keep the connection for the unread rest
          if (err.status === 413 || err.code === 'proxy_overloaded') closeAfterAnswer(req, res);
          sendError(res, route.protocol, err, err instanceof AdvisedError ? err.advice : undefined);
          record.finish(deps.log, err.status, err.code);
          return;
        }
        record.finish(deps.log, 500, 'internal_error');
        if (!res.headersSent) throw err; // the server renders the 500 and reports the bug
        if (!res.writableEnded) res.end();
      } finally {
        // every way out passes here: the body is answered, refused or abandoned by now
        releaseBody(x);
        inFlight.remove(ticket, x);
      }
    },
    close: () => services.close(),
    shedIdleConnections: () => services.shedIdleConnections(),
    requestsInFlight: () => inFlight.size,
    bodyBytesHeld: () => bodyBudget.held,
    reconfigure: (config) => {
      bodyBudget.limit = config.settings.bodyBudgetBytes;
    },
    endInFlight: () => {
      const ended = endCommittedStreams(SHUTTING_DOWN) + answerWaiting(inFlight.items(), SHUTTING_DOWN);
      dropEndedCalls(inFlight.items());
      return ended;
    },
    endRevoked(active) {
      toolUseIds.keepOnly(active);
      const revoked = (record: RequestRecord): boolean => record.entry.keyId !== undefined && !active.has(record.entry.keyId);
      const waiting = inFlight.items().filter((x) => revoked(x.record));
      if (waiting.length === 0) return 0;
      const ended = endCommittedStreams(KEY_REVOKED, revoked) + answerWaiting(waiting, KEY_REVOKED);
      dropEndedCalls(waiting);
      return ended;
    },
  };
}
