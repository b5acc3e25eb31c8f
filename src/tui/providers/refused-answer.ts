/**
 * Which wizard answer the daemon refused, read from its error's code (and, for headers, which of
 * the two the message names), so the wizard can ask that question again rather than the first.
 */
import { AdminApiError } from '../../cli/admin-client.js';

const FIELD_OF_CODE: Readonly<Record<string, string>> = {
  invalid_slug: 'slug',
  slug_reserved: 'slug',
  slug_taken: 'slug',
  invalid_url: 'url',
  invalid_format: 'format',
  invalid_credential: 'credential',
};

/** The refused answer's field key when the wizard has that field; undefined when the error does not say. */
export function refusedAnswer(err: unknown, keys: readonly string[]): string | undefined {
  if (!(err instanceof AdminApiError)) return undefined;
  // the daemon names the header setting it refused first: "authHeader: …" or "headers: …"
  const key = err.code === 'invalid_header' ? (err.message.startsWith('authHeader:') ? 'authHeader' : 'headers') : FIELD_OF_CODE[err.code];
  return key !== undefined && keys.includes(key) ? key : undefined;
}
