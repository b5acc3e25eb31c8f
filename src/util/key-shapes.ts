/** The shapes of provider and service keys, for redacting them and for refusing them where they do not belong. */
import { secretForms } from './secret-forms.js';

/**
 * Where a key may start: after no word character (so `task-…` is no `sk-` key), or after an escape
 * whose last character is one — JSON's `\n`, `\t` … and `\u000a`, `\u0022` … (a truncated body
 * logged as text, JSON text in a tool call's arguments, an encoder that writes `\u` escapes) and a
 * percent escape (`%2F`, `%0A` in a request path, `%20` in a URL's query). A word in front that is
 * no whole escape (`abcsk-…`, `\u0022abcsk-…`) still says it is no key.
 */
const KEY_START = String.raw`(?:(?<![A-Za-z0-9_])|\\[bfnrt]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})`;

/** Each shape's fixed prefix, and the rest. The `sk-` family covers OpenAI, Anthropic, OpenRouter and our own keys. */
const SHAPES: readonly (readonly [prefix: string, rest: string])[] = [
  ['sk-', String.raw`[A-Za-z0-9_-]{16,}`],
  ['AIza', String.raw`[0-9A-Za-z_-]{35}\b`],
  ['gsk_', String.raw`[A-Za-z0-9]{20,}`],
  ['xai-', String.raw`[A-Za-z0-9]{20,}`],
];

/**
 * The prefix first, where it starts looked at behind it: a pattern that opens with a literal is
 * searched for by it, some 20 times faster over a logged body than one that tests a boundary at
 * every position.
 */
export const KEY_PATTERNS: readonly RegExp[] = SHAPES.map(([prefix, rest]) => new RegExp(`${prefix}(?<=${KEY_START}${prefix})${rest}`, 'g'));

/** Service keys are this prefix and 43 base62 characters (keys/format.ts). */
export const SERVICE_KEY_PREFIX = 'sk-svc-proxy-';
/**
 * A service key in any text; the short display prefix a listing shows ("sk-svc-proxy-Ab3d") is not
 * one. No word boundary in front: JSON writes a line break or tab before a key as `\n`, `\t`, and
 * the prefix is distinctive enough on its own. The run stops where another key begins, so a key
 * written right after one is masked too (not half eaten by the first).
 */
export const SERVICE_KEY_RE = /sk-svc-proxy-(?:(?!sk-svc-proxy-)[A-Za-z0-9]){16,}/g;

export const BEARER_RE = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/** What each pattern above needs somewhere in the text, in one scan (a superset: case aside). */
export const KEY_HINT_RE = /sk-|AIza|gsk_|xai-|bearer|basic/i;

/** Does `text` hold something shaped like a key or an Authorization credential? */
export function holdsKey(text: string): boolean {
  return [...KEY_PATTERNS, BEARER_RE].some((re) => {
    re.lastIndex = 0;
    const found = re.test(text);
    re.lastIndex = 0;
    return found;
  });
}

/**
 * The shortest stored credential searched for where an upstream may echo it whole: answers and
 * streams (routing/redact.ts streamSecret) mask it, model lists (providers/models.ts) leave out an
 * entry holding it. One rule for both, so a credential is never hidden in one place and shown in
 * the other. Short ones count too: a placeholder ("none", "ollama") cannot be told from a short
 * real key, and masking a placeholder costs a word of an answer while showing a key costs the key.
 * Below four characters a match says nothing (and the tail search, redact.ts, needs four).
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * The forms of a credential that holdsSecret searches for (secret-forms.ts: raw and JSON-escaped,
 * as answers mask them), or none when it is too short to search for. Worked out once per list.
 */
export function searchedForms(credential: string | undefined): readonly string[] {
  return credential !== undefined && credential.length >= MIN_SECRET_LENGTH ? secretForms(credential) : [];
}

/** Does `text` hold one of a credential's forms (searchedForms), or anything shaped like a key? */
export function holdsSecret(text: string, forms: readonly string[]): boolean {
  return forms.some((form) => text.includes(form)) || holdsKey(text);
}
