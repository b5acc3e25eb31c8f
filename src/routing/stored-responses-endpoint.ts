/**
 * protocol-a/v1/responses/{id}: GET (the answer), GET …/input_items (the items it was made from),
 * DELETE, POST …/cancel — OpenAI's API over stored responses. An answer the daemon converted and
 * keeps (response-store.ts) is answered here, in the scope of the caller's service key; any other
 * id is OpenAI's, and goes to the `openai` provider when it is connected (its key stays here).
 */
import { ProtocolError, badRequest } from '../protocols/errors.js';
import { isResolveFailure } from '../providers/registry.js';
import type { ResolvedProvider } from '../providers/types.js';
import { cursorIndex, pageBetween } from './cursor-page.js';
import type { Exchange } from './exchange.js';
import type { ResponseStore } from './response-store.js';
import { relayToOpenAI } from './openai-call.js';
import { sendJson } from './respond.js';
import { lookupGroup } from './targets.js';
import { trimTrailingSlashes } from '../util/slashes.js';

type Obj = Record<string, unknown>;
type Action = 'retrieve' | 'delete' | 'input_items' | 'cancel';

interface Addressed {
  id: string;
  action: Action;
  /** The query string as the client sent it ('' or '?…'). */
  search: string;
  query: URLSearchParams;
}

const MAX_LIST_LIMIT = 100;
const DEFAULT_LIST_LIMIT = 20;

/** What the path and method ask for; a 404 or 405 in OpenAI's words when nothing. */
function address(url: string, method: string): Addressed {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q);
  const rest = trimTrailingSlashes(path.slice(path.indexOf('/responses/') + '/responses/'.length));
  const [rawId = '', sub, ...more] = rest.split('/');
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    throw new ProtocolError(404, 'not_found', `No route for ${path.slice(0, 200)}: the response id is not valid percent-encoding.`);
  }
  const allowed: Record<string, Partial<Record<string, Action>>> = {
    '': { GET: 'retrieve', DELETE: 'delete' },
    input_items: { GET: 'input_items' },
    cancel: { POST: 'cancel' },
  };
  // an id is letters, digits, `_` and `-` (resp_…): `..` would relay a path OpenAI resolves elsewhere
  const methods = more.length === 0 && /^[A-Za-z0-9_-]{1,200}$/.test(id) ? allowed[sub ?? ''] : undefined;
  if (!methods) {
    throw new ProtocolError(404, 'not_found', `No route for ${path.slice(0, 200)}. Stored responses: GET or DELETE /responses/{id}, GET /responses/{id}/input_items, POST /responses/{id}/cancel.`);
  }
  const action = methods[method];
  if (!action) throw new ProtocolError(405, 'method_not_allowed', `${method} is not allowed on ${path.slice(0, 200)}; use ${Object.keys(methods).join(' or ')}.`);
  return { id, action, search, query: new URLSearchParams(search) };
}

function notFound(id: string, why: string): ProtocolError {
  return new ProtocolError(404, 'response_not_found', `Response with id '${id.slice(0, 200)}' not found: ${why}`);
}

const KEPT_WHERE =
  'svc-proxy keeps the answers it converts for this service key (in memory, for an hour after their last use, not across a restart, never with store: false)';

export async function handleStoredResponse(x: Exchange): Promise<void> {
  const { route, record } = x;
  if (route.group !== undefined) lookupGroup(x.config, route.group);
  const at = address(x.req.url ?? '', x.req.method ?? 'GET');
  // the log tells the calls apart: stored_response.retrieve, .input_items, .delete, .cancel
  record.entry.endpoint = `stored_response.${at.action}`;
  if (at.query.get('stream') === 'true') {
    throw badRequest('unsupported_feature', 'Streaming a stored response again is for background responses, which svc-proxy does not run; leave out stream.', 'stream');
  }
  const scope = record.entry.keyId ?? '';
  const store = x.responses;
  const answer = store.answerJson(scope, at.id);
  if (answer !== undefined) {
    // the answer goes back as the bytes it is held in; the other calls need only its id
    sendJson(x.res, 200, at.action === 'retrieve' ? answer : JSON.stringify(onKeptAnswer(at.action, at, store, scope)));
    record.firstByte();
    record.finish(x.deps.log, 200);
    return;
  }
  const openai = x.services.resolveProvider('openai');
  if (isResolveFailure(openai)) throw notFound(at.id, `${KEPT_WHERE}, and openai, which keeps its own, is not connected.`);
  await forward(x, openai, at);
}

/** Listing, deleting or cancelling a kept answer. */
function onKeptAnswer(action: Exclude<Action, 'retrieve'>, at: Addressed, store: ResponseStore, scope: string): Obj {
  switch (action) {
    case 'input_items':
      return listPage(store.inputItems(scope, at.id) ?? [], at.query);
    case 'delete':
      store.delete(scope, at.id);
      return { id: at.id, object: 'response', deleted: true };
    case 'cancel':
      throw badRequest(
        'response_not_cancellable',
        `Response '${at.id.slice(0, 200)}' was not created in the background: only background responses can be cancelled, and svc-proxy runs none (its answers are complete when they arrive).`,
      );
  }
}

/** One page of a list in OpenAI's cursor shape: newest first unless order=asc, after/before an item id. */
export function listPage(items: readonly Obj[], query: URLSearchParams): Obj {
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_LIST_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw badRequest('invalid_request', `limit must be an integer from 1 to ${MAX_LIST_LIMIT} (got ${String(limitText).slice(0, 40)}).`, 'limit');
  }
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw badRequest('invalid_request', `order must be asc or desc (got ${order.slice(0, 40)}).`, 'order');
  const ordered = order === 'asc' ? items : [...items].reverse();
  const { data, hasMore } = pageBetween(ordered, limit, cursorIndex(ordered, query, 'after', 'item of this response'), cursorIndex(ordered, query, 'before', 'item of this response'));
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null, has_more: hasMore };
}

/** An id the daemon does not keep: OpenAI's to answer, with the daemon's credential. */
function forward(x: Exchange, p: ResolvedProvider, at: Addressed): Promise<void> {
  const tail = at.action === 'input_items' ? '/input_items' : at.action === 'cancel' ? '/cancel' : '';
  const method = at.action === 'delete' ? 'DELETE' : at.action === 'cancel' ? 'POST' : 'GET';
  return relayToOpenAI(x, p, { method, path: `/responses/${encodeURIComponent(at.id)}${tail}`, query: at.search }, (failure) =>
    failure.upstreamStatus === 404 ? notFound(at.id, `${KEPT_WHERE}, and ${failure.message}`) : failure,
  );
}
