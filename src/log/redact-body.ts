/**
 * Bodies for `--log-bodies` (debugging): the structure stays readable, but credentials and inline
 * media never reach the log file. Runs in the log's batch flush, never on the request path.
 * Separate from routing/redact.ts redactForLog, which each logged body passes first: that one masks
 * the provider credential, known only to the request, and keeps the entry's copy small until the
 * flush; this one masks anything shaped like a key, needing no credential, its regexes kept off
 * the request path.
 */
import { BEARER_RE, KEY_PATTERNS } from '../util/key-shapes.js';
import { dropPayload, mediaPlaceholder } from '../util/media-placeholder.js';

const REDACTED = '[redacted]';
const MAX_DEPTH = 64;

/** Header-like and credential-like keys whose values are dropped whatever they look like. */
const SECRET_KEYS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'api_key',
  'apikey',
  'x-goog-api-key',
  'password',
  'secret',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
]);

/** Keys that hold base64 media in the dialects we speak (image/audio/file payloads). */
const MEDIA_KEYS = new Set(['b64_json', 'file_data', 'partial_image_b64']);

/**
 * Every part before the payload is bounded (type and subtype ≤ 127 chars as RFC 6838 allows, at
 * most 16 parameters): unbounded, each "data:" in a long crafted string rescanned the rest of it.
 */
const DATA_URL_RE = /data:([\w.+-]{1,127}\/[\w.+-]{1,127})?((?:;[\w-]{1,64}=[^;,]{0,256}){0,16});base64,[A-Za-z0-9+/=\s]+/g;
const BASE64_RE = /^[A-Za-z0-9+/=\r\n]+$/;

/** Credentials and data: URLs inside any string. */
export function redactString(s: string): string {
  let out = s;
  if (out.includes('base64,')) {
    out = out.replace(DATA_URL_RE, (m, mime: string | undefined, params: string) => {
      const payload = m.length - m.indexOf('base64,') - 7;
      return `data:${mime ?? ''}${params};base64,${mediaPlaceholder(payload)}`;
    });
  }
  for (const re of KEY_PATTERNS) out = out.replace(re, REDACTED);
  if (/bearer|basic/i.test(out)) out = out.replace(BEARER_RE, (_m, scheme: string) => `${scheme} ${REDACTED}`);
  return out;
}

function isLongBase64(v: unknown): v is string {
  return typeof v === 'string' && v.length >= 64 && BASE64_RE.test(v);
}

function dropMedia(payload: string): string {
  return dropPayload(payload, redactString);
}

function redactValue(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return redactString(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(v)) return v.map((x) => redactValue(x, depth + 1));
  const obj = v as Record<string, unknown>;
  // Anthropic `{type:"base64", data}` sources, Gemini `inline_data`, chat `input_audio`, audio output.
  const mediaContainer = obj.type === 'base64' || 'media_type' in obj || 'mime_type' in obj || 'mimeType' in obj || 'format' in obj;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(obj)) {
    const lower = k.toLowerCase();
    if (SECRET_KEYS.has(lower)) out[k] = REDACTED;
    else if (MEDIA_KEYS.has(lower) && typeof val === 'string') out[k] = dropMedia(val);
    else if (lower === 'data' && (mediaContainer || isLongBase64(val)) && typeof val === 'string') out[k] = dropMedia(val);
    else if (obj.type === 'image_generation_call' && lower === 'result' && typeof val === 'string') out[k] = dropMedia(val);
    else out[k] = redactValue(val, depth + 1);
  }
  return out;
}

/**
 * A loggable copy of a request or response body. Accepts what the routing layer has at hand —
 * a parsed object, a string, or raw bytes — and never modifies its input. JSON text comes back as
 * parsed JSON (so the log line nests it), anything else as a redacted string.
 */
export function redactBody(body: unknown): unknown {
  if (body === undefined || body === null) return body;
  let v: unknown = body;
  if (v instanceof Uint8Array) v = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  if (typeof v === 'string') {
    const t = v.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return redactValue(JSON.parse(v), 0);
      } catch {
        // Not JSON after all (or truncated): fall through to string redaction.
      }
    }
    return redactString(v);
  }
  return redactValue(v, 0);
}
