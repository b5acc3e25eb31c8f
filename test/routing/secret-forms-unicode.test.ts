/**
 * Encoders that write characters as `\uXXXX`: Go's encoding/json (`<`, `>`, `&`, U+2028, U+2029),
 * Python's json.dumps with ensure_ascii (every non-ASCII character, lower-case hex), and others in
 * upper-case hex. A credential echoed by such an upstream is masked wherever the raw one is.
 */
import { describe, expect, it } from 'vitest';
import { maskEchoedBytes, maskEchoedText } from '../../src/routing/echoed-secrets.js';
import { redactForLog, redactSecret, streamRedactor, streamSecret } from '../../src/routing/redact.js';
import { SplitSecretHold } from '../../src/routing/split-secret.js';
import { holdsSecret, searchedForms } from '../../src/util/key-shapes.js';
import { secretForms } from '../../src/util/secret-forms.js';
import { credentialProblem } from '../../src/secrets/credential-check.js';

const hex4 = (c: string, upper: boolean): string => {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};
/** As Go's json.Marshal writes a value (its HTML escaping is on by default). */
const goJson = (v: unknown): string => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => hex4(c, false));
/** As Python's json.dumps writes one with its defaults (ensure_ascii, ", " and ": " separators). */
const pythonJson = (v: unknown): string =>
  JSON.stringify(v, null, 1)
    .replace(/\n */g, (m, at: number, all: string) => (all[at - 1] === '[' || all[at - 1] === '{' || all[at + m.length] === ']' || all[at + m.length] === '}' ? '' : ' '))
    .replace(/[\u0080-\uffff]/g, (c) => hex4(c, false));
/** An encoder escaping both kinds in upper-case hex (.NET's default, PHP's JSON_HEX_TAG). */
const upperJson = (v: unknown): string => JSON.stringify(v).replace(/[<>&\u0080-\uffff]/g, (c) => hex4(c, true));

const GO_KEY = 'cq-tag<b>&amp-Secret_Lm9';
const PY_KEY = 'cq-clé-Søcret_Lm9';

describe('a credential some encoder writes with \\u escapes', () => {
  it('has those forms only when it holds such characters; a plain key keeps its one form', () => {
    expect(secretForms('sk-proj-plain-key-1b2_Kd')).toEqual(['sk-proj-plain-key-1b2_Kd']);
    expect(secretForms(GO_KEY)).toContain('cq-tag\\u003cb\\u003e\\u0026amp-Secret_Lm9');
    expect(secretForms(GO_KEY)).toContain('cq-tag\\u003Cb\\u003E\\u0026amp-Secret_Lm9');
    expect(secretForms(PY_KEY)).toContain('cq-cl\\u00e9-S\\u00f8cret_Lm9');
    expect(secretForms(PY_KEY)).toContain('cq-cl\\u00E9-S\\u00F8cret_Lm9');
    // each form reads back as the credential, and each form is distinct
    for (const key of [GO_KEY, PY_KEY, 'cq-\u2028sep/"q"<Secret']) {
      const forms = secretForms(key);
      expect(new Set(forms).size).toBe(forms.length);
      for (const form of forms.slice(1)) {
        const read = JSON.parse(`"${form}"`) as string;
        expect(read === key || JSON.parse(`"${read}"`) === key, form).toBe(true);
      }
    }
  });

  it('Go, Python and upper-case echoes are masked in answers, as text and as bytes', () => {
    for (const [key, encode] of [
      [GO_KEY, goJson],
      [PY_KEY, pythonJson],
      [GO_KEY, upperJson],
      [PY_KEY, upperJson],
    ] as const) {
      const body = encode({ text: `your key is ${key}`, args: encode({ note: key }) });
      expect(body).not.toContain(key);
      const forms = streamSecret(key);
      const masked = maskEchoedText(body, forms);
      expect(masked, body).not.toContain('Secret_Lm9');
      expect((JSON.parse(masked) as { text: string }).text).toBe('your key is [REDACTED]');
      expect(maskEchoedBytes(Buffer.from(body), forms).toString()).toBe(masked);
    }
  });

  it('a passthrough stream masks the echo in an error event', () => {
    const event = `event: error\ndata: ${goJson({ error: { message: `invalid key ${GO_KEY}` } })}\n\n`;
    const redactor = streamRedactor(GO_KEY)!;
    const out = Buffer.concat([redactor.push(Buffer.from(event)), redactor.flush()]);
    expect(out.toString()).toBe('event: error\ndata: {"error":{"message":"invalid key [REDACTED]"}}\n\n');
  });

  it('error messages and logged bodies quoting such a body mask the credential, its head and its tail', () => {
    for (const [key, encode] of [
      [GO_KEY, goJson],
      [PY_KEY, pythonJson],
    ] as const) {
      const echo = encode({ detail: `bad key ${key}` });
      const form = echo.slice(echo.indexOf('bad key ') + 8, -2);
      const quoted = echo.slice(0, echo.indexOf(form));
      // whole, cut short (a head), and its last characters (a tail): nothing of it is left
      expect(redactSecret(`upstream said ${echo}`, key)).toBe(`upstream said ${quoted}[REDACTED]"}`);
      expect(redactSecret(`cut: ${echo.slice(0, -6)}`, key)).toBe(`cut: ${quoted}[REDACTED]`);
      expect(redactSecret(`ends in …${form.slice(-12)} (error)`, key)).toBe('ends in …[REDACTED] (error)');
      expect(JSON.stringify(redactForLog({ quoted: echo }, key))).not.toContain('Secret_Lm9');
    }
  });

  it('a converted stream holds the start of an escaped form across deltas', () => {
    const forms = streamSecret(GO_KEY);
    const args = goJson({ note: GO_KEY });
    const start = args.indexOf('cq-tag');
    for (let cut = start + 1; cut < args.length - 2; cut++) {
      const hold = new SplitSecretHold(forms);
      const pieces = [args.slice(0, cut), args.slice(cut)].map((json) => hold.pass({ type: 'arguments_delta', index: 0, json }));
      pieces.push(hold.release(0));
      const out = pieces.map((p) => (p?.type === 'arguments_delta' ? maskEchoedText(p.json, forms) : ''));
      for (const o of out) expect(o, `cut at ${cut}`).not.toContain('Secret_Lm9');
    }
  });

  it('a non-ASCII credential (put in the keychain or the credentials file by another tool or by hand): its ASCII forms are searched in answers and streams', () => {
    // svc-proxy's own ways in refuse it (connect, endpoint add, an environment variable); those two stores are read unchecked
    expect(credentialProblem(PY_KEY)).toBe('contains spaces, line breaks or non-ASCII characters');
    const forms = streamSecret(PY_KEY)!;
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(form).toMatch(/^[\x21-\x7e]+$/);
    expect(maskEchoedBytes(Buffer.from(pythonJson({ k: PY_KEY })), forms).toString()).toBe('{"k": "[REDACTED]"}');
  });

  it('model lists leave out an entry holding an escaped form', () => {
    expect(holdsSecret(`ft:${goJson(GO_KEY)}`, searchedForms(GO_KEY))).toBe(true);
    expect(holdsSecret(`ft:${pythonJson(PY_KEY)}`, searchedForms(PY_KEY))).toBe(true);
    expect(holdsSecret('gpt-4o-mini', searchedForms(GO_KEY))).toBe(false);
  });
});
