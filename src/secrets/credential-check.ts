/**
 * What makes a credential unusable, checked alike for one given to `provider connect` / `endpoint
 * add` and for one read from an environment variable: it becomes an HTTP header value upstream.
 */

const MAX_CREDENTIAL = 8192;
/** Printable ASCII, no space: what a header value of a key may hold. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;
/** Wrapped whole in one kind of quote: what a .env file or a shell line with its quotes kept gives. */
const QUOTED = /^(["'`]).*\1$/s;

/** Why `value` (already trimmed) cannot be used as a credential, as the end of a sentence; undefined when it can. */
export function credentialProblem(value: string): string | undefined {
  if (value === '') return 'is empty';
  if (value.length > MAX_CREDENTIAL) return 'is too long';
  if (!HEADER_SAFE.test(value)) return 'contains spaces, line breaks or non-ASCII characters';
  if (value.length >= 2 && QUOTED.test(value)) return 'is wrapped in quotes (give the key without them)';
  return undefined;
}
