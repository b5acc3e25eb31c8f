/**
 * The ways a credential can stand in what reaches a client or the log. One with `"` or `\` (a
 * custom endpoint's key or header value may hold them) is written `\"`, `\\` inside a JSON string
 * — an answer, SSE data, an error message quoting a body — and twice over where JSON text sits in a
 * JSON string (a tool call's arguments, a logged body). Each form is searched for; a credential
 * without those characters has one form, itself, and costs nothing more.
 */

/** The credential, then each JSON-escaped form of it that differs: at most three. */
export function secretForms(secret: string): readonly string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  if (once === secret) return [secret];
  return [secret, once, JSON.stringify(once).slice(1, -1)];
}
