/**
 * The ways a credential can stand in what reaches a client or the log. One with `"` or `\` (a
 * custom endpoint's key or header value may hold them) is written `\"`, `\\` inside a JSON string
 * — an answer, SSE data, an error message quoting a body — and twice over where JSON text sits in a
 * JSON string (a tool call's arguments, a logged body). One with `/` may be written `\/` too: JSON
 * allows it and PHP's and some Java encoders do it. Some encoders write characters as `\uXXXX`:
 * Go's `<`, `>`, `&`, U+2028 and U+2029; Python's (ensure_ascii) every non-ASCII one; in lower-case
 * hex, or upper-case (.NET, Jackson, PHP's JSON_HEX_TAG). Gson's and .NET's defaults escape more
 * (an HTML-safe set with `=`, `'`, `+`), which a base64-style key holds. Each form is searched for;
 * a credential without any of these characters, the usual one, has one form, itself, and costs one
 * scan of it.
 */

/** A character that gives a credential another form (control characters are escaped too). */
const ESCAPABLE = /["\\/<>&'+=`]|[^\x20-\x7e]/;
/** What Go's encoding/json writes as `\uXXXX` (safe in HTML and in old JavaScript). */
const GO_ESCAPED = /[<>&\u2028\u2029]/g;
/** What Python's json.dumps writes as `\uXXXX` by default: all but ASCII (UTF-16 units: a pair past U+FFFF). */
const NON_ASCII = /[\u0080-\uffff]/g;
/** Both at once (PHP's json_encode with JSON_HEX_TAG). */
const GO_AND_NON_ASCII = /[<>&\u0080-\uffff]/g;
/** What Gson writes as `\uXXXX` by default (HTML-safe), in lower-case hex only. */
const GSON_ESCAPED = /[<>&='\u2028\u2029]/g;
/**
 * What .NET's System.Text.Json writes as `\uXXXX` by default (JavaScriptEncoder.Default), in
 * upper-case hex only: `"` too, which the JSON text this is applied to holds as `\"`.
 */
const DOTNET_ESCAPED = /\\"|[<>&'+`\u0080-\uffff]/g;

/** Each set of characters some encoder writes as `\uXXXX`, with the case of hex it writes. */
const UNICODE_ESCAPERS: readonly (readonly [which: RegExp, cases: readonly boolean[]])[] = [
  [GO_ESCAPED, [false, true]],
  [NON_ASCII, [false, true]],
  [GO_AND_NON_ASCII, [false, true]],
  [GSON_ESCAPED, [false]],
  [DOTNET_ESCAPED, [true]],
];

/** The credential escaped as a JSON string's content. */
function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** `json` with `which` characters written `\uXXXX` (a match of two, `\"`, stands for its last). */
function unicodeEscaped(json: string, which: RegExp, upper: boolean): string {
  return json.replace(which, (c) => {
    const hex = c.charCodeAt(c.length - 1).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

/**
 * The credential, then each escaped form of it that differs, shortest first (a form is masked
 * before any shorter one, which it may hold). The JSON-escaped forms are each of: `\uXXXX` for
 * none, Go's or Python's characters or both (in either case), Gson's or .NET's; with `\/` or not;
 * once or twice.
 */
export function secretForms(secret: string): readonly string[] {
  if (!ESCAPABLE.test(secret)) return [secret];
  const json = escaped(secret);
  const once = new Set([json]);
  for (const [which, cases] of UNICODE_ESCAPERS) for (const upper of cases) once.add(unicodeEscaped(json, which, upper));
  if (secret.includes('/')) for (const form of [...once]) once.add(form.replaceAll('/', '\\/'));
  const forms = new Set([secret]);
  for (const form of once) forms.add(form).add(escaped(form));
  return [...forms].sort((a, b) => a.length - b.length);
}
