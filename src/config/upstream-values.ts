/**
 * The checks a base URL or an upstream's name must pass, whoever sets them: the management
 * operations refuse such a value, and `config check` names one written into config.json by hand.
 */
import { OperationError } from './errors.js';
import { slugSchema } from './schema.js';
import { isCredentialQueryName } from '../util/credential-query-name.js';
import { displayUrl } from '../util/display-url.js';
import { holdsKey } from '../util/key-shapes.js';
import { printable } from '../util/printable.js';
import { trimTrailingSlashes } from '../util/slashes.js';

/** How displayUrl shows a credential in a URL. */
const MASK = '***';

/**
 * The value as a refusal quotes it: what was typed where a URL goes may be a key pasted by
 * mistake, and the message reaches a terminal, a log or a client; credentials and control codes
 * never do.
 */
function quoted(raw: string): string {
  if (holdsKey(raw)) return 'the value given (it holds something shaped like a key; keys go in the keychain)';
  const shown = printable(displayUrl(raw.trim()));
  return `"${shown.length > 200 ? `${shown.slice(0, 200)}…` : shown}"`;
}

export function validateUrl(raw: unknown, what: string): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new OperationError(400, 'invalid_url', `${what} needs a URL (e.g. --url http://127.0.0.1:8000/v1).`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new OperationError(400, 'invalid_url', `${what}: ${quoted(raw)} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:8000/v1` parses as a URL of scheme "localhost:"
    const bare = !raw.includes('://');
    throw new OperationError(400, 'invalid_url', bare && !holdsKey(raw) ? `${what}: ${quoted(raw)} has no scheme; write http://${printable(raw.trim())} (or https://).` : `${what}: only http and https URLs are supported.`);
  }
  // a URL shown masked and given back as it is (the TUI's base URL field opens with it) would send *** upstream
  if ([...url.searchParams.values()].includes(MASK)) {
    throw new OperationError(400, 'invalid_url', `${what}: ${MASK} stands for a value shown masked, not a value; type the URL whole.`);
  }
  if (url.username || url.password || holdsKey(url.search) || [...url.searchParams.keys()].some(isCredentialQueryName)) {
    throw new OperationError(400, 'invalid_url', `${what}: put credentials in the keychain, not in the URL.`);
  }
  // paths are appended to a base URL; after a #fragment they would never reach the server
  if (url.hash !== '' || raw.trim().endsWith('#')) throw new OperationError(400, 'invalid_url', `${what}: a base URL cannot have a #fragment (everything after # stays on this machine).`);
  return trimTrailingSlashes(url.toString());
}

export function validateSlug(raw: unknown, what: string): string {
  const parsed = slugSchema.safeParse(raw);
  if (!parsed.success) throw new OperationError(400, 'invalid_slug', `${what} name "${String(raw)}": ${parsed.error.issues[0]?.message}.`);
  return parsed.data;
}
