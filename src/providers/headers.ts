/**
 * Upstream request headers. Only what the upstream needs is set: JSON content type, our agent
 * name, auth from the stored credential, and for Messages upstreams the API version and beta flags
 * (the client's own when it spoke Messages). Nothing else from the client is ever copied.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dialect } from '../protocols/hub.js';

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';
const USER_AGENT = 'svc-proxy';

function baseHeaders(): Record<string, string> {
  return { 'content-type': 'application/json', 'user-agent': USER_AGENT };
}

/** OpenAI-style `Authorization: Bearer`; no auth header when there is no credential. */
export function bearerHeaders(credential: string | undefined): Record<string, string> {
  const headers = baseHeaders();
  if (credential) headers.authorization = `Bearer ${credential}`;
  return headers;
}

function single(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const joined = Array.isArray(value) ? value.join(',') : value;
  const trimmed = joined.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * Messages upstream headers. `x-api-key` for API keys; Anthropic OAuth access tokens
 * (`sk-ant-oat…`) go as Bearer with the oauth beta flag, as Claude Code sends them.
 */
export function messagesHeaders(credential: string | undefined, client: IncomingHttpHeaders, from: Dialect): Record<string, string> {
  const headers = baseHeaders();
  const fromMessages = from === 'messages';
  headers['anthropic-version'] = (fromMessages ? single(client['anthropic-version']) : undefined) ?? DEFAULT_ANTHROPIC_VERSION;
  const betas: string[] = [];
  const clientBeta = fromMessages ? single(client['anthropic-beta']) : undefined;
  if (clientBeta) betas.push(clientBeta);
  if (credential?.startsWith('sk-ant-oat')) {
    headers.authorization = `Bearer ${credential}`;
    if (!clientBeta?.split(',').some((b) => b.trim().startsWith('oauth-'))) betas.push('oauth-2025-04-20');
  } else if (credential) {
    headers['x-api-key'] = credential;
  }
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  return headers;
}
