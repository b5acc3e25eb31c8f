/**
 * The proxy's route table, as plain string matching (this runs on every request: no regex engine,
 * no router). Bases:
 *   /protocol-a/v1/…           OpenAI dialects (Chat Completions, Responses)
 *   /protocol-b/v1/…           Anthropic Messages — reached both by SDKs whose base is /protocol-b
 *                              (they append /v1/messages) and by clients whose base is
 *                              /protocol-b/v1 (they append /messages)
 *   /g/<slug>/protocol-a|b/…   the same, for a model group
 * A missing or doubled `/v1` is tolerated on both bases (tools disagree on who appends it).
 */
import type { ProxyEndpoint, ProxyRoute } from '../routing/proxy-handler.js';
import type { Protocol } from './send-error.js';
import { trimTrailingSlashes } from '../util/slashes.js';

export type ProxyMatch =
  | { ok: true; route: ProxyRoute }
  /** `route`: on a 405, the endpoint the path names (the request log records it). */
  | { ok: false; protocol: Protocol; status: number; code: string; message: string; allow?: string; route?: ProxyRoute };

interface EndpointSpec {
  endpoint: ProxyEndpoint;
  methods: readonly string[];
}

const A_ENDPOINTS: Record<string, EndpointSpec> = {
  '/chat/completions': { endpoint: 'chat', methods: ['POST'] },
  '/responses': { endpoint: 'responses', methods: ['POST'] },
  '/models': { endpoint: 'models', methods: ['GET'] },
  '/audio/transcriptions': { endpoint: 'transcriptions', methods: ['POST'] },
  '/conversations': { endpoint: 'conversations', methods: ['POST'] },
  // (under /responses/, where a response id goes: A_ENDPOINTS is looked at first)
  '/responses/input_tokens': { endpoint: 'input_tokens', methods: ['POST'] },
};
/** GET …/models/{id}: the id may hold `/` (provider/model), so everything after /models/ is it. */
const MODEL_ITEM: EndpointSpec = { endpoint: 'model', methods: ['GET'] };
const A_RESPONSES_ITEM: EndpointSpec = { endpoint: 'responses_item', methods: ['GET', 'DELETE', 'POST'] };
const A_CONVERSATION: EndpointSpec = { endpoint: 'conversations', methods: ['GET', 'POST', 'DELETE'] };

/** OpenAI endpoints svc-proxy deliberately does not offer. */
const A_UNSUPPORTED: Record<string, string> = {
  '/embeddings': 'Embeddings are not offered by svc-proxy.',
  '/images/generations': 'Image generation is not offered by svc-proxy.',
  '/images/edits': 'Image editing is not offered by svc-proxy.',
  '/images/variations': 'Image variations are not offered by svc-proxy.',
  '/audio/speech': 'Speech (text to speech) is not offered by svc-proxy.',
  '/audio/translations': 'Audio translation is not offered by svc-proxy; use /audio/transcriptions.',
  // (under /responses/, where a response id goes: checked before an id is read from the path)
  '/responses/compact': 'Compacting a conversation (POST /responses/compact) is not offered by svc-proxy: its result is an item only OpenAI can read. Compact in the client.',
};

const B_ENDPOINTS: Record<string, EndpointSpec> = {
  '/messages': { endpoint: 'messages', methods: ['POST'] },
  '/messages/count_tokens': { endpoint: 'count_tokens', methods: ['POST'] },
  '/models': { endpoint: 'models', methods: ['GET'] },
};

const SLUG = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Protocol whose error shape a path should get (A unless it is under a protocol B base). */
export function protocolOfPath(path: string): Protocol {
  let rest = path;
  if (rest.startsWith('/g/')) {
    const end = rest.indexOf('/', 3);
    rest = end === -1 ? '' : rest.slice(end);
  }
  return rest === '/protocol-b' || rest.startsWith('/protocol-b/') ? 'b' : 'a';
}

export function isProxyPath(path: string): boolean {
  return path.startsWith('/protocol-') || path.startsWith('/g/');
}

/** `path` is without the query string. */
export function matchProxyPath(path: string, method: string): ProxyMatch {
  let rest = path;
  let group: string | undefined;
  if (rest.startsWith('/g/')) {
    const end = rest.indexOf('/', 3);
    group = end === -1 ? rest.slice(3) : rest.slice(3, end);
    rest = end === -1 ? '' : rest.slice(end);
  }

  let protocol: Protocol;
  if (rest === '/protocol-a' || rest.startsWith('/protocol-a/')) protocol = 'a';
  else if (rest === '/protocol-b' || rest.startsWith('/protocol-b/')) protocol = 'b';
  else return notFound('a', path, group !== undefined ? 'A group base is /g/<slug>/protocol-a/v1 or /g/<slug>/protocol-b.' : undefined);

  if (group !== undefined && !SLUG.test(group)) {
    return {
      ok: false,
      protocol,
      status: 404,
      code: 'group_not_found',
      message: `No model group named "${readable(group).slice(0, 80)}": group names are lowercase letters, digits, "-" and "_", at most 63 characters, the first a letter or digit (svc-proxy group list).`,
    };
  }

  let sub = rest.slice('/protocol-a'.length);
  // all slashes: the root ('/') stays
  sub = trimTrailingSlashes(sub) || sub.slice(0, 1);
  for (let i = 0; i < 2 && (sub === '/v1' || sub.startsWith('/v1/')); i++) sub = sub.slice(3);

  let spec: EndpointSpec | undefined;
  if (protocol === 'a') {
    spec = A_ENDPOINTS[sub];
    if (!spec) {
      const unsupported = A_UNSUPPORTED[sub];
      if (unsupported) return { ok: false, protocol, status: 404, code: 'unsupported_endpoint', message: unsupported };
    }
    if (!spec && sub.startsWith('/models/')) spec = MODEL_ITEM;
    if (!spec && sub.startsWith('/responses/') && sub.length > '/responses/'.length) spec = A_RESPONSES_ITEM;
    if (!spec && sub.startsWith('/conversations/') && sub.length > '/conversations/'.length) spec = A_CONVERSATION;
  } else {
    spec = B_ENDPOINTS[sub];
    if (!spec && sub.startsWith('/models/')) spec = MODEL_ITEM;
  }
  if (!spec) return notFound(protocol, path);
  const route: ProxyRoute = group === undefined ? { protocol, endpoint: spec.endpoint } : { protocol, group, endpoint: spec.endpoint };
  if (!spec.methods.includes(method)) {
    return {
      ok: false,
      protocol,
      status: 405,
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}; use ${spec.methods.join(' or ')}.`,
      allow: spec.methods.join(', '),
      route,
    };
  }
  return { ok: true, route };
}

/** A slug as the client wrote it, not as its HTTP client percent-encoded it (a name in another script, a space). */
function readable(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function notFound(protocol: Protocol, path: string, hint?: string): ProxyMatch {
  const bases =
    protocol === 'a'
      ? 'Protocol A routes: /protocol-a/v1/chat/completions, /responses, /responses/input_tokens, /models, /models/{id}, /audio/transcriptions, /conversations.'
      : 'Protocol B routes: /protocol-b/v1/messages, /v1/messages/count_tokens, /v1/models, /v1/models/{id}.';
  return { ok: false, protocol, status: 404, code: 'not_found', message: `No route for ${path.slice(0, 200)}. ${hint ?? bases}` };
}
