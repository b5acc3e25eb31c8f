/**
 * Removes a provider credential from text that is about to reach a client or the log.
 *
 * Some providers echo the key, or its last characters ("…provided: sk-****abcd"), in their
 * error messages. Every suffix of a secret ends with the secret's last four characters, so we
 * look for those and widen each hit backwards as far as it keeps matching the secret.
 */

const MASK = '[REDACTED]';
const MIN_TAIL = 4;

export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || text.length === 0) return text;
  let out = text;
  if (out.includes(secret)) out = out.split(secret).join(MASK);
  if (secret.length <= MIN_TAIL) return out;

  const tail = secret.slice(-MIN_TAIL);
  let hit = out.indexOf(tail);
  if (hit === -1) return out;

  let result = '';
  let copied = 0;
  while (hit !== -1) {
    // Widen backwards while the text keeps matching the secret from its end.
    let start = hit;
    let s = secret.length - MIN_TAIL - 1;
    while (s >= 0 && start > copied && out.charCodeAt(start - 1) === secret.charCodeAt(s)) {
      start--;
      s--;
    }
    result += out.slice(copied, start) + MASK;
    copied = hit + MIN_TAIL;
    hit = out.indexOf(tail, copied);
  }
  return result + out.slice(copied);
}

/** Redact every string in a JSON-like value (for --log-bodies), also dropping inline media. */
export function redactForLog(value: unknown, secret: string | undefined): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('data:') && value.length > 64) return `[data URL, ${value.length} chars]`;
    return redactSecret(value, secret);
  }
  if (Array.isArray(value)) return value.map((v) => redactForLog(v, secret));
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      // base64 payloads of images, documents and audio: keep their size, not their bytes
      if ((key === 'data' || key === 'file_data' || key === 'b64_json') && typeof v === 'string' && v.length > 64) {
        out[key] = `[base64, ${v.length} chars]`;
      } else {
        out[key] = redactForLog(v, secret);
      }
    }
    return out;
  }
  return value;
}
