/**
 * What a logged body shows in place of an inline payload (a base64 image, audio, a file, a data
 * URL's bytes). Both body redactors write it — the request path's (routing/redact.ts) and the log's
 * at its flush (log/redact-body.ts) — so a log reader sees one form, whichever dropped the payload.
 */

const PREFIX = '[media redacted, ';

/** The placeholder of a payload of `chars` characters. */
export function mediaPlaceholder(chars: number): string {
  return `${PREFIX}${chars} chars]`;
}

/**
 * A payload's placeholder — a data URL keeps its header — or `value` itself when it is one already
 * (a body the request path redacted, met again at the flush: its size stays the payload's).
 * `maskHeader` masks what a data URL's header may hold of a credential.
 */
export function dropPayload(value: string, maskHeader: (header: string) => string): string {
  if (isDropped(value)) return value;
  return value.startsWith('data:') ? dataUrlPlaceholder(value, maskHeader) : mediaPlaceholder(value.length);
}

function isDropped(value: string): boolean {
  if (!value.endsWith(' chars]')) return false;
  return value.startsWith(PREFIX, value.startsWith('data:') ? value.indexOf(',') + 1 : 0);
}

/** A header longer than this is no media type and parameters: the whole URL counts as payload. */
const MAX_HEADER = 512;

/** A data URL with its payload dropped: `data:<media type and parameters>,` then the placeholder. */
function dataUrlPlaceholder(url: string, maskHeader: (header: string) => string): string {
  const comma = url.indexOf(',', 5);
  if (comma === -1 || comma > MAX_HEADER) return `data:,${mediaPlaceholder(url.length - 5)}`;
  return `data:${maskHeader(url.slice(5, comma))},${mediaPlaceholder(url.length - comma - 1)}`;
}
