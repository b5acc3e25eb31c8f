/**
 * Carries reasoning proof of origin through a client whose dialect has no field for it.
 *
 * A Messages client only round-trips `signature` on thinking blocks; a Responses client only
 * round-trips `encrypted_content` on reasoning items. When the reasoning came from another
 * provider (OpenAI encrypted reasoning to a Messages client, an Anthropic signature to a Responses
 * client, OpenRouter details, …) we pack the origin into that one opaque string and unpack it when
 * the client sends it back. A string without our prefix is the dialect's own native value.
 *
 * Anthropic never sees an envelope and OpenAI never sees one: codecs unpack first and then replay
 * only the origins the target accepts.
 */
import type { ReasoningItem, ReasoningOrigin } from './hub.js';

const PREFIX = 'svcp1.';

export function packOrigin(origin: ReasoningOrigin): string {
  return PREFIX + Buffer.from(JSON.stringify(origin), 'utf8').toString('base64url');
}

export function isEnvelope(value: string): boolean {
  return value.startsWith(PREFIX);
}

/** An envelope as it opens in JSON text: always at the start of a string value. */
const IN_JSON = Buffer.from(`"${PREFIX}`);

/**
 * Cheap pre-check on a raw JSON request body: without an envelope opening anywhere in it, none
 * needs unpacking, and a passthrough body is never walked for one. The leading quote makes the
 * search jump from quote to quote: 3–26 µs per 300 KB here, against ~100 µs for the bare prefix.
 */
export function mayHoldEnvelopes(raw: Buffer): boolean {
  return raw.includes(IN_JSON);
}

/**
 * The origin an opaque reasoning value proves: our envelope's, or `native()` for a value without
 * our prefix (the dialect's own). A value with our prefix that does not unpack (cut short, edited)
 * proves nothing and is unsigned reasoning: as a "native" value it would reach the provider, an
 * envelope it cannot read.
 */
export function originOfOpaque(value: string, native: () => ReasoningOrigin): ReasoningOrigin {
  if (!isEnvelope(value)) return native();
  return unpackOrigin(value) ?? { kind: 'unsigned' };
}

/** Origin of a thinking block's `signature` (Messages, or a chat upstream that carries one): our envelope, else Anthropic's own. */
export function originFromSignature(signature: string): ReasoningOrigin {
  return originOfOpaque(signature, () => ({ kind: 'anthropic', signature }));
}

/**
 * A thinking block read back as reasoning. No signature proves nothing: unsigned. An unsigned
 * envelope with text is a block that was shown without its reasoning (`display: "omitted"`): the
 * text comes back from the envelope, so a provider that wants its reasoning returned still gets it.
 */
export function reasoningOfThinkingBlock(text: string, signature: string): ReasoningItem {
  if (signature === '') return { type: 'reasoning', text, origin: { kind: 'unsigned' } };
  const origin = originFromSignature(signature);
  if (origin.kind === 'unsigned' && origin.text !== undefined) {
    return { type: 'reasoning', text: text === '' ? origin.text : text, origin: { kind: 'unsigned' } };
  }
  return { type: 'reasoning', text, origin };
}

/** The origin inside an envelope, or undefined when the value is not (a valid) one of ours. */
export function unpackOrigin(value: string): ReasoningOrigin | undefined {
  if (!value.startsWith(PREFIX)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value.slice(PREFIX.length), 'base64url').toString('utf8'));
    return isOrigin(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isOrigin(v: unknown): v is ReasoningOrigin {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  switch (o.kind) {
    case 'anthropic':
      return typeof o.signature === 'string';
    case 'anthropic_redacted':
      return typeof o.data === 'string';
    case 'openai':
      return typeof o.id === 'string' && typeof o.encryptedContent === 'string';
    case 'openrouter':
      return Array.isArray(o.details) && o.details.every((d) => typeof d === 'object' && d !== null);
    case 'unsigned':
      return o.text === undefined || typeof o.text === 'string';
    default:
      return false;
  }
}
