/**
 * The commands that give an endpoint a usable credential again, for a hint: `endpoint add` refuses
 * a slug that is taken (409), so the endpoint is removed first, then added with the settings it has
 * (URL, format, the header its key goes in and its fixed headers), each word quoted for a POSIX
 * shell when it needs it. The hint reaches clients and the log: a user and password or a key in
 * the URL, and a fixed header that carries a credential (a hand-edited config.json still loads
 * with one, though `config check` names it), are masked — `endpoint add` refuses them anyway.
 */
import type { Endpoint } from '../config/schema.js';
import { shownFixedHeaderValue } from '../config/header-settings.js';
import { displayUrl } from '../util/display-url.js';
import { quoteSh } from '../util/quote-sh.js';

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

function shellWord(word: string): string {
  return PLAIN.test(word) ? word : quoteSh(word);
}

export function endpointReaddCommands(slug: string, endpoint: Pick<Endpoint, 'url' | 'format' | 'authHeader' | 'headers'>): string {
  let add = `svc-proxy endpoint add ${slug} --url ${shellWord(displayUrl(endpoint.url))} --format ${endpoint.format}`;
  if (endpoint.authHeader !== undefined) add += ` --auth-header ${shellWord(endpoint.authHeader)}`;
  for (const [name, value] of Object.entries(endpoint.headers ?? {})) add += ` --header ${shellWord(`${name}=${shownFixedHeaderValue(name, value)}`)}`;
  return `\`svc-proxy endpoint remove ${slug}\`, then \`${add}\` with its key`;
}
