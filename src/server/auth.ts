/** Service-key authentication for the proxy routes: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
import type { IncomingMessage } from 'node:http';
import type { KeyVerifier, VerifiedKey } from '../keys/verifier.js';

export type AuthResult = { ok: true; key: VerifiedKey } | { ok: false; code: 'missing_api_key' | 'invalid_api_key'; message: string };

const MISSING = {
  ok: false as const,
  code: 'missing_api_key' as const,
  message: 'No service key. Send it as "Authorization: Bearer sk-svc-proxy-…" or "x-api-key: sk-svc-proxy-…" (create one with: svc-proxy key create --name <name>).',
};
const INVALID = {
  ok: false as const,
  code: 'invalid_api_key' as const,
  message: 'The service key is not valid (unknown or revoked). See: svc-proxy key list',
};

const NOT_BEARER = {
  ok: false as const,
  code: 'invalid_api_key' as const,
  message: 'The Authorization header is not "Bearer <service key>". Send "Authorization: Bearer sk-svc-proxy-…" or "x-api-key: sk-svc-proxy-…".',
};

function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.length < 8) return undefined;
  if (header.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = header.slice(7).trim();
  return token === '' ? undefined : token;
}

/**
 * A key header's value, or undefined when it holds only whitespace: then no key was sent. Node
 * joins a repeated x-api-key with ", ", so blank repeats read as no key too, not as a wrong one.
 */
function presented(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  return /^[\s,]*$/.test(v) ? undefined : v;
}

export function authenticate(req: IncomingMessage, verifier: KeyVerifier): AuthResult {
  const apiKey = presented(req.headers['x-api-key']);
  const authorization = presented(req.headers.authorization);
  const bearer = bearerToken(authorization);
  if (!apiKey && !bearer) {
    // a key was sent, in a shape this is not (no "Bearer", Basic, a tab after Bearer): saying
    // "no service key" would send its sender looking in the wrong place
    return authorization !== undefined && !/^bearer\s*$/i.test(authorization) ? NOT_BEARER : MISSING;
  }
  // Some clients send both (one of them a placeholder): either valid key is enough.
  if (apiKey) {
    const key = verifier.verify(apiKey);
    if (key) return { ok: true, key };
  }
  if (bearer && bearer !== apiKey) {
    const key = verifier.verify(bearer);
    if (key) return { ok: true, key };
  }
  return INVALID;
}
