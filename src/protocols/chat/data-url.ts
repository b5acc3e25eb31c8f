/**
 * `data:<media type>;base64,<data>` URLs, as Chat carries inline images and files. The hub keeps
 * media type and base64 apart (Anthropic wants them apart), so we split on the way in and join on
 * the way out.
 */

/** Standard or URL-safe base64, optionally padded. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

export interface Base64Data {
  mediaType: string;
  data: string;
}

/** True for anything that claims to be a data URL (so a malformed one is reported, not fetched). */
export function isDataUrl(url: string): boolean {
  return url.length >= 5 && url.slice(0, 5).toLowerCase() === 'data:';
}

/**
 * The media type and base64 payload of a base64 data URL, or undefined when the URL is not one
 * (missing `;base64`, no comma, empty media type or payload).
 */
export function parseBase64DataUrl(url: string): Base64Data | undefined {
  if (!isDataUrl(url)) return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const header = url.slice(5, comma);
  const params = header.split(';');
  const mediaType = params[0]!.trim().toLowerCase();
  const isBase64 = params.slice(1).some((p) => p.trim().toLowerCase() === 'base64');
  const data = url.slice(comma + 1).trim();
  if (!isBase64 || mediaType.length === 0 || !mediaType.includes('/') || !BASE64.test(data)) return undefined;
  return { mediaType, data };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
