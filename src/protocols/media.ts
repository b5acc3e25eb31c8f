/**
 * Inline media as the dialects write it — data URLs (Chat, Responses), bare base64 next to a media
 * type (Messages), http(s) URLs — and what a file holds, from its name or its first bytes. One
 * parser and one table for every codec, so the same bytes mean the same thing whichever dialect
 * they arrive in. The hub keeps media type and base64 apart (Anthropic wants them apart): split on
 * the way in, joined on the way out.
 */

/** Standard or URL-safe base64, optionally padded. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

export interface InlineData {
  /** Lower-cased; '' when the data URL names none (the caller picks a default). */
  mediaType: string;
  data: string;
}

export function isBase64(data: string): boolean {
  return BASE64.test(data);
}

/** True for anything that claims to be a data URL (so a malformed one is reported, not fetched). */
export function isDataUrl(url: string): boolean {
  return url.length >= 5 && url.slice(0, 5).toLowerCase() === 'data:';
}

/**
 * The media type and payload of a base64 data URL (`data:<type>[;params];base64,<data>`), or
 * undefined when it is not one: no comma, no `base64` parameter, a media type without a slash, or
 * an empty or non-base64 payload.
 */
export function parseDataUrl(url: string): InlineData | undefined {
  if (!isDataUrl(url)) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const params = url.slice(5, comma).split(';');
  const mediaType = params[0]!.trim().toLowerCase();
  if (!params.slice(1).some((p) => p.trim().toLowerCase() === 'base64')) return undefined;
  if (mediaType !== '' && !mediaType.includes('/')) return undefined;
  const data = url.slice(comma + 1).trim();
  if (data === '' || !isBase64(data)) return undefined;
  return { mediaType, data };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** An absolute http(s) URL without whitespace (anything else is not something a provider fetches). */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\/\S+$/i.test(url);
}

/** Media types by file extension; the first extension listed for a type is the one we write. */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

const EXTENSION_BY_TYPE: ReadonlyMap<string, string> = new Map(
  Object.entries(BY_EXTENSION)
    .reverse()
    .map(([ext, type]) => [type, ext]),
);

/** The media type a file name's extension says, if we know it. */
export function mediaTypeOfName(filename: string | undefined): string | undefined {
  const dot = filename?.lastIndexOf('.') ?? -1;
  if (!filename || dot === -1) return undefined;
  const ext = filename.slice(dot + 1).toLowerCase();
  return Object.hasOwn(BY_EXTENSION, ext) ? BY_EXTENSION[ext] : undefined;
}

/** A file extension for a media type (`text/plain` → `txt`), else its subtype made safe. */
export function extensionFor(mediaType: string): string {
  const known = EXTENSION_BY_TYPE.get(mediaType.toLowerCase());
  if (known) return known;
  const sub = mediaType.split('/')[1]?.split(/[+;]/)[0]?.replace(/[^a-z0-9]/gi, '');
  return sub || 'bin';
}

/** The media type base64 data holds, read from its first bytes, if it is one we recognise. */
export function sniffMediaType(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 16), 'base64');
  const ascii = (from: number, to: number): string => head.toString('latin1', from, to);
  if (head[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 4) === 'GIF8') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}

/** Media type of inline file data the client did not label: its name, then its bytes, else PDF (what inline files mostly are). */
export function fileMediaType(filename: string | undefined, data: string): string {
  return mediaTypeOfName(filename) ?? sniffMediaType(data) ?? 'application/pdf';
}

/** Media type of an inline image the client did not label: its bytes, else PNG. */
export function imageMediaType(data: string): string {
  return sniffMediaType(data) ?? 'image/png';
}
