/**
 * A URL as shown to a person (CLI, TUI, log, doctor): a user and password, and query values that
 * look like credentials, are masked. Config checks refuse such URLs, but a hand-edited config or a
 * proxy URL from the environment can still hold them. Read as text, not parsed with URL, so what is
 * shown is what was written.
 */
import { isCredentialQueryName } from './credential-query-name.js';
import { holdsKey } from './key-shapes.js';

const MASK = '***';

export function displayUrl(url: string): string {
  return maskQuery(maskUserinfo(url));
}

function maskUserinfo(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme === -1) return url;
  const start = scheme + 3;
  let end = url.length;
  for (const c of '/?#') {
    const i = url.indexOf(c, start);
    if (i !== -1 && i < end) end = i;
  }
  const at = url.lastIndexOf('@', end - 1);
  return at < start ? url : `${url.slice(0, start)}${MASK}${url.slice(at)}`;
}

function maskQuery(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const hash = url.indexOf('#', q);
  const query = hash === -1 ? url.slice(q + 1) : url.slice(q + 1, hash);
  const masked = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const value = pair.slice(eq + 1);
      return value !== '' && (isCredentialQueryName(pair.slice(0, eq)) || holdsKey(value)) ? `${pair.slice(0, eq + 1)}${MASK}` : pair;
    })
    .join('&');
  return `${url.slice(0, q + 1)}${masked}${hash === -1 ? '' : url.slice(hash)}`;
}
