/**
 * An answer relayed to the client (a model's reply, a stored response, a conversation, a
 * transcription) may echo the provider's credential — a model repeating its context, a gateway
 * quoting its request — or a service key a client pasted into a prompt. Both are masked wherever
 * they appear whole; tails and heads are left to error messages (redact.ts), where they mean a key.
 * An answer holding neither, the common case, costs one search for each and is not copied.
 */
import { SERVICE_KEY_PREFIX, SERVICE_KEY_RE } from '../util/key-shapes.js';

const MASK = '[REDACTED]';

/**
 * `secret`: the credential's forms as streamSecret (redact.ts) works them out, once per answer or
 * stream (raw, then JSON-escaped: util/secret-forms.ts); the most escaped is masked first, as it holds
 * no other form whole.
 */
export function maskEchoedText(text: string, secret: readonly string[] | undefined): string {
  let out = text;
  if (secret !== undefined) {
    for (let i = lastFormIn(out, secret); i >= 0; i--) if (out.includes(secret[i]!)) out = out.split(secret[i]!).join(MASK);
  }
  if (out.includes(SERVICE_KEY_PREFIX)) out = out.replace(SERVICE_KEY_RE, MASK);
  return out;
}

/**
 * The last of the forms `text` may hold: each escaped form holds a backslash, so text without one
 * (most of a model's output) is searched for the first form only, the raw credential.
 */
function lastFormIn(text: string | Buffer, secret: readonly string[]): number {
  return secret.length > 1 && text.indexOf('\\') === -1 ? 0 : secret.length - 1;
}

function holdsAnyForm(body: Buffer, secret: readonly string[] | undefined): boolean {
  if (secret !== undefined) for (let i = lastFormIn(body, secret); i >= 0; i--) if (body.indexOf(secret[i]!) !== -1) return true;
  return false;
}

export function maskEchoedBytes(body: Buffer, secret: readonly string[] | undefined): Buffer {
  if (!holdsAnyForm(body, secret) && body.indexOf(SERVICE_KEY_PREFIX) === -1) return body;
  // both are ASCII: latin1 keeps every other byte as it was
  const text = body.toString('latin1');
  const masked = maskEchoedText(text, secret);
  return masked === text ? body : Buffer.from(masked, 'latin1');
}

/** A whole answer as the routing layer renders it (bytes spliced, or text serialised). */
export function maskEchoed(body: Buffer | string, secret: readonly string[] | undefined): Buffer | string {
  return typeof body === 'string' ? maskEchoedText(body, secret) : maskEchoedBytes(body, secret);
}
