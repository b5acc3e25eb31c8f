/**
 * An answer relayed to the client (a model's reply, a stored response, a conversation, a
 * transcription) may echo the provider's credential — a model repeating its context, a gateway
 * quoting its request — or a service key a client pasted into a prompt. Both are masked wherever
 * they appear whole; tails and heads are left to error messages (redact.ts), where they mean a key.
 * An answer holding neither, the common case, costs one search for each and is not copied.
 */
import { SERVICE_KEY_PREFIX, SERVICE_KEY_RE } from '../util/key-shapes.js';

const MASK = '[REDACTED]';

/** `secret`: the credential as streamSecret (redact.ts) passes it, once per answer or stream. */
export function maskEchoedText(text: string, secret: string | undefined): string {
  let out = text;
  if (secret !== undefined && out.includes(secret)) out = out.split(secret).join(MASK);
  if (out.includes(SERVICE_KEY_PREFIX)) out = out.replace(SERVICE_KEY_RE, MASK);
  return out;
}

export function maskEchoedBytes(body: Buffer, secret: string | undefined): Buffer {
  if ((secret === undefined || body.indexOf(secret) === -1) && body.indexOf(SERVICE_KEY_PREFIX) === -1) return body;
  // both are ASCII: latin1 keeps every other byte as it was
  const text = body.toString('latin1');
  const masked = maskEchoedText(text, secret);
  return masked === text ? body : Buffer.from(masked, 'latin1');
}

/** A whole answer as the routing layer renders it (bytes spliced, or text serialised). */
export function maskEchoed(body: Buffer | string, secret: string | undefined): Buffer | string {
  return typeof body === 'string' ? maskEchoedText(body, secret) : maskEchoedBytes(body, secret);
}
