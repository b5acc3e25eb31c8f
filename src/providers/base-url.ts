/**
 * Base URL handling. Base URLs are written the way each dialect's official SDK takes them; the
 * adapters append operation paths. A query string on the base (some gateways need one) is kept
 * after the appended path.
 */
import { trimTrailingSlashes } from '../util/slashes.js';

/** Remove trailing slashes (keeps the query string, if any, in place). */
export function trimBase(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  return trimTrailingSlashes(path) + query;
}

/** `base` + `path`, with the base's query string moved after the path. */
export function joinUrl(base: string, path: string): string {
  const q = base.indexOf('?');
  if (q === -1) return base + path;
  return base.slice(0, q) + path + base.slice(q);
}

/** Drop a trailing `/v1` (Messages upstreams: the SDK appends `/v1/messages` itself). */
export function stripTrailingV1(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q);
  return path.replace(/\/v1$/, '') + query;
}

/** True when the URL has no path beyond `/` (e.g. `http://127.0.0.1:11434`). Cheap: no URL parse. */
export function isRootUrl(url: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/?(?:\?[^#]*)?$/i.test(url);
}

/** Origin of a URL without credentials, for error messages. */
export function displayOrigin(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the upstream';
  }
}
