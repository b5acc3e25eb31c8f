/**
 * The ways a credential can stand in what reaches a client or the log. One with `"` or `\` (a
 * custom endpoint's key or header value may hold them) is written `\"`, `\\` inside a JSON string
 * — an answer, SSE data, an error message quoting a body — and twice over where JSON text sits in a
 * JSON string (a tool call's arguments, a logged body). One with `/` may be written `\/` too: JSON
 * allows it and PHP's and some Java encoders do it. Each form is searched for; a credential without
 * `"`, `\` or `/` has one form, itself, and costs nothing more.
 */

/** The credential escaped as a JSON string's content. */
function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * The credential, then each escaped form of it that differs, shortest first (a form is masked
 * before any shorter one, which it may hold): at most five.
 */
export function secretForms(secret: string): readonly string[] {
  const once = escaped(secret);
  const slash = secret.includes('/');
  if (once === secret && !slash) return [secret];
  const forms = once === secret ? [secret] : [secret, once, escaped(once)];
  if (slash) {
    const onceSlashed = once.replaceAll('/', '\\/');
    forms.push(onceSlashed, escaped(onceSlashed));
  }
  return forms.sort((a, b) => a.length - b.length);
}
