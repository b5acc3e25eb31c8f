/**
 * protocol-a/v1/conversations…: OpenAI's Conversations API (create, retrieve, update, delete, and
 * a conversation's items), forwarded to the `openai` provider with the daemon's credential.
 * Conversations live at OpenAI: a Responses request naming one goes on with it on `openai/…`
 * models, which OpenAI appends to itself (policy.ts refuses it for other models). They belong to
 * the OpenAI account, not to a service key.
 */
import { ProtocolError, badRequest } from '../protocols/errors.js';
import { isResolveFailure } from '../providers/registry.js';
import type { Exchange } from './exchange.js';
import { relayToOpenAI } from './openai-call.js';
import { checkDeclaredLength, checkJsonContentType, readBody } from './request-body.js';
import { lookupGroup } from './targets.js';
import { trimTrailingSlashes } from '../util/slashes.js';

/** `/conversations…` and the query string of a request URL (the base and a group prefix cut off). */
export function conversationsPath(url: string): { path: string; query: string } {
  const q = url.indexOf('?');
  const full = q === -1 ? url : url.slice(0, q);
  const at = full.indexOf('/conversations');
  return { path: trimTrailingSlashes(full.slice(at)), query: q === -1 ? '' : url.slice(q) };
}

/**
 * What a Conversations call does, for the request log: create, retrieve, update, delete, and
 * items.list, items.create, items.retrieve, items.delete (the SDK's names); undefined for a path
 * or method the API does not have (OpenAI answers those).
 */
export function conversationAction(method: string, path: string): string | undefined {
  const parts = path.split('/').filter(Boolean); // ['conversations', id?, 'items'?, itemId?]
  if (parts.length === 1) return method === 'POST' ? 'create' : undefined;
  if (parts.length === 2) return ({ GET: 'retrieve', POST: 'update', DELETE: 'delete' } as Record<string, string>)[method];
  if (parts[2] !== 'items') return undefined;
  if (parts.length === 3) return ({ GET: 'items.list', POST: 'items.create' } as Record<string, string>)[method];
  if (parts.length === 4) return ({ GET: 'items.retrieve', DELETE: 'items.delete' } as Record<string, string>)[method];
  return undefined;
}

/**
 * OpenAI's ids (conv_…, msg_…) are letters, digits, `_` and `-`. Anything else in a segment —
 * `..`, `%2e%2e`, more segments — would let a service key reach any OpenAI path with the
 * daemon's credential (files, fine-tuning), so it is refused here, never relayed.
 */
const OPENAI_ID = /^[A-Za-z0-9_-]{1,200}$/;

export async function handleConversations(x: Exchange): Promise<void> {
  const { req, route, config } = x;
  const { path, query } = conversationsPath(req.url ?? '');
  // the log tells the calls apart: conversations.create, .retrieve, .items.list …
  const action = conversationAction(req.method ?? 'GET', path);
  const [, id, , itemId] = path.split('/').filter(Boolean);
  if (!action || (id !== undefined && !OPENAI_ID.test(id)) || (itemId !== undefined && !OPENAI_ID.test(itemId))) {
    throw new ProtocolError(404, 'not_found', `No route for ${req.method ?? 'GET'} ${path.slice(0, 200)}. Conversations: POST /conversations; GET, POST or DELETE /conversations/{id}; GET or POST /conversations/{id}/items; GET or DELETE /conversations/{id}/items/{item_id}.`);
  }
  x.record.entry.endpoint = `conversations.${action}`;
  if (route.group !== undefined) lookupGroup(config, route.group);
  const openai = x.services.resolveProvider('openai');
  if (isResolveFailure(openai)) {
    const why = openai.error === 'not_connected' ? openai.hint : 'Provider "openai" is not known.';
    const code = (openai.error === 'not_connected' && openai.code) || 'provider_not_connected';
    throw new ProtocolError(400, code, `Conversations are kept by OpenAI, and svc-proxy reaches them through the openai provider: ${why}`);
  }
  let body: Buffer | undefined;
  if (req.method === 'POST') {
    checkDeclaredLength(req, config.settings.bodyLimitBytes);
    checkJsonContentType(req);
    body = await readBody(req, config.settings.bodyLimitBytes, x);
    if (body.length === 0) body = Buffer.from('{}');
    try {
      JSON.parse(body.toString('utf8'));
    } catch (err) {
      throw badRequest('invalid_json', `The request body is not valid JSON: ${(err as Error).message}`);
    }
  }
  await relayToOpenAI(x, openai, { method: req.method ?? 'GET', path, query, body });
}
