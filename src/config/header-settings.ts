/**
 * What a custom endpoint, or a built-in provider behind a gateway, may say about its request
 * headers (corporate gateways and hosted deployments want their own): which header carries the stored credential (`authHeader`, e.g.
 * Azure OpenAI's `api-key`; `authorization` means `Bearer <key>`), and fixed headers sent with
 * every request (`headers`, e.g. a team or project id). Fixed headers live in config.json in the
 * clear, so none of them may carry auth: the credential goes in the keychain and `authHeader` says
 * where to put it. Headers the HTTP client owns cannot be set either.
 */

import { holdsKey } from '../util/key-shapes.js';

export interface HeaderSettings {
  authHeader?: string;
  headers?: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Owned by the HTTP client, or auth that belongs in the keychain. */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
  'authorization',
  'x-api-key',
  'api-key',
  'cookie',
]);

/** Other headers gateways and providers take keys in (Google, Azure API Management, generic tokens). */
const CREDENTIAL_HEADERS = new Set(['x-goog-api-key', 'ocp-apim-subscription-key', 'x-auth-token', 'x-access-token', 'x-api-token', 'private-token']);

/** Why this name cannot carry the credential, or undefined when it can. */
export function authHeaderProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name.slice(0, 60)}" is not a header name`;
  const lower = name.toLowerCase();
  if (lower !== 'authorization' && lower !== 'x-api-key' && lower !== 'api-key' && RESERVED.has(lower)) return `${lower} cannot carry the credential`;
  return undefined;
}

/** Why this fixed header cannot be sent with every request, or undefined when it can. */
export function fixedHeaderProblem(name: string, value: string, authHeader?: string): string | undefined {
  if (!TOKEN.test(name)) return `"${name.slice(0, 60)}" is not a header name`;
  const lower = name.toLowerCase();
  if (RESERVED.has(lower) || lower === authHeader?.toLowerCase()) {
    return `${lower} cannot be a fixed header (${/auth|api-key|cookie/.test(lower) ? KEYCHAIN_HINT : 'the HTTP client sets it'})`;
  }
  if (/[\r\n\0]/.test(value)) return `the value of ${lower} has a line break or NUL in it`;
  return undefined;
}

const KEYCHAIN_HINT = 'a credential goes in the keychain: store the key and name the header that carries it as the auth header';

/**
 * A fixed header that would put a credential into config.json in the clear: a header keys travel
 * in, or a value shaped like a key. Refused when a header is set (CLI, admin API, TUI) and named by
 * `config check`; a file that already holds one still loads, so an upgrade never stops a daemon.
 */
export function fixedHeaderCredentialProblem(name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower)) return `${lower} cannot be a fixed header (${KEYCHAIN_HINT})`;
  if (holdsKey(value)) return `the value of ${lower} looks like a key (${KEYCHAIN_HINT})`;
  return undefined;
}

/** What a fixed header that carries a credential is shown as, by the admin API, the CLI and the TUI. */
export const MASKED_HEADER_VALUE = '***';

/**
 * Names a hand-edited file may give a header that carries a credential though its value has no
 * key's shape (`x-gateway-token: abc`): shown masked too, since a value shown is a value leaked.
 */
const CREDENTIAL_NAME = /auth|key|token|secret|passw|credential|signature|session|cookie/i;

/** A fixed header's value as shown to a person or a client (admin API, CLI, TUI): masked when it may carry a credential. */
export function shownFixedHeaderValue(name: string, value: string): string {
  return fixedHeaderCredentialProblem(name, value) === undefined && !CREDENTIAL_NAME.test(name) ? value : MASKED_HEADER_VALUE;
}

/** Fixed headers as every answer of the daemon and every output of the CLI shows them. */
export function shownFixedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, shownFixedHeaderValue(name, value)]));
}

/**
 * What a client sends as a fixed header's value to keep the value config.json holds for it, which
 * it was only shown masked (the TUI's editor, `provider set --auth-header`): an object, so no
 * typed value can be mistaken for it.
 */
export interface KeepStoredValue {
  keep: true;
}
export const KEEP_STORED_VALUE: KeepStoredValue = { keep: true };

export function isKeepStoredValue(value: unknown): value is KeepStoredValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { keep?: unknown }).keep === true && Object.keys(value).length === 1;
}

/** Fixed headers as shown, given back: each masked value becomes the marker that keeps the stored one. */
export function keptFixedHeaders(shown: Readonly<Record<string, string>>): Record<string, string | KeepStoredValue> {
  return Object.fromEntries(Object.entries(shown).map(([name, value]) => [name, value === MASKED_HEADER_VALUE ? KEEP_STORED_VALUE : value]));
}

/** Why a fixed header being set now (CLI, admin API, TUI) is refused: the file's rules and no credential. */
export function settableFixedHeaderProblem(name: string, value: string, authHeader?: string): string | undefined {
  return fixedHeaderProblem(name, value, authHeader) ?? fixedHeaderCredentialProblem(name, value);
}

/** The value `headers` hold for the header `name`, whatever case either spells it in (a hand-edited file may). */
export function fixedHeaderValue(headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [held, value] of Object.entries(headers ?? {})) if (held.toLowerCase() === lower) return value;
  return undefined;
}
