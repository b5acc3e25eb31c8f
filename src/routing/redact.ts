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

/**
 * Redaction for the bytes of a passthrough stream, which otherwise reach the client untouched: an
 * upstream error event may echo the credential or its tail. The common case is one byte search
 * per chunk (memchr for the secret's last character) and the chunk returned as it is. Only when
 * the secret's last four characters are there is the chunk split into lines: a line holding the
 * whole secret is always redacted; one holding just its tail only when it is an error event (or
 * continues a line from an earlier chunk), so model output that happens to contain four such
 * characters is left alone. An echo split across two chunks is not seen.
 */
export function redactStreamChunk(chunk: Buffer, secret: string | undefined): Buffer {
  const usable = streamSecret(secret);
  return usable === undefined ? chunk : redactCheckedChunk(chunk, usable);
}

/** The secret when stream chunks can be searched for it (printable ASCII, not too short): checked once per stream. */
export function streamSecret(secret: string | undefined): string | undefined {
  return secret && secret.length >= MIN_TAIL && /^[\x21-\x7e]+$/.test(secret) ? secret : undefined;
}

/** redactStreamChunk for a secret streamSecret() accepted (the per-chunk path). */
export function redactCheckedChunk(chunk: Buffer, secret: string): Buffer {
  const last = secret.charCodeAt(secret.length - 1);
  let hit = chunk.indexOf(last);
  while (hit !== -1 && !endsWithTail(chunk, hit, secret)) hit = chunk.indexOf(last, hit + 1);
  if (hit === -1) return chunk;

  const tail = secret.slice(-MIN_TAIL);
  const lines = chunk.toString('latin1').split(/(?<=\n)/);
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.includes(tail)) continue;
    const continuation = i === 0 && !/^(data|event|id|retry)?:|^\r?\n/.test(line);
    if (line.includes(secret) || continuation || /error|failed/i.test(line)) {
      lines[i] = redactSecret(line, secret);
      changed = true;
    }
  }
  return changed ? Buffer.from(lines.join(''), 'latin1') : chunk;
}

/** The MIN_TAIL bytes ending at `end` (inclusive) are the secret's last characters. */
function endsWithTail(buf: Buffer, end: number, secret: string): boolean {
  if (end < MIN_TAIL - 1) return false;
  const s = secret.length - 1;
  for (let k = 1; k < MIN_TAIL; k++) if (buf[end - k] !== secret.charCodeAt(s - k)) return false;
  return true;
}
