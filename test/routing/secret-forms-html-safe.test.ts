/**
 * Encoders that write HTML-sensitive characters as `\uXXXX` by default: Gson (`<`, `>`, `&`, `=`,
 * `'`, U+2028/2029, lower-case hex) and .NET's System.Text.Json (`<`, `>`, `&`, `'`, `"`, `+`,
 * backtick and every non-ASCII character, upper-case hex). A base64-style credential holds `+` and
 * `=`: echoed by such a server, it is masked wherever the raw one is. A usual `sk-…` key holds
 * none of these characters and keeps its one form.
 */
import { describe, expect, it } from 'vitest';
import { maskEchoedBytes, maskEchoedText } from '../../src/routing/echoed-secrets.js';
import { redactForLog, redactSecret, streamRedactor, streamSecret } from '../../src/routing/redact.js';
import { holdsSecret, searchedForms } from '../../src/util/key-shapes.js';
import { secretForms } from '../../src/util/secret-forms.js';

const hex4 = (c: string, upper: boolean): string => {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? hex.toUpperCase() : hex}`;
};
/** As Gson's toJson writes a value with its defaults (HTML-safe). */
const gsonJson = (v: unknown): string => JSON.stringify(v).replace(/[<>&='\u2028\u2029]/g, (c) => hex4(c, false));
/** As System.Text.Json's JsonSerializer writes a value with its defaults (JavaScriptEncoder.Default). */
const dotnetJson = (v: unknown): string =>
  JSON.stringify(v)
    .replace(/\\"/g, '\\u0022')
    .replace(/[<>&'+`\u0080-\uffff]/g, (c) => hex4(c, true));

/** Base64-style, with `+`, `=` and `'` well before its end: the part before the last escape is what a tail mask alone would leave. */
const KEY = "cq-Zm9v+YmFy=Ym'F6-Secret_Nt7";
const ENCODERS = [
  ['Gson', gsonJson],
  ['.NET', dotnetJson],
] as const;

describe('a credential Gson or .NET writes with \\u escapes', () => {
  it('has their forms only when it holds such characters; a usual key keeps its one form', () => {
    expect(secretForms('sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123')).toEqual(['sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123']);
    expect(secretForms(KEY)).toContain("cq-Zm9v+YmFy\\u003dYm\\u0027F6-Secret_Nt7");
    expect(secretForms(KEY)).toContain('cq-Zm9v\\u002BYmFy=Ym\\u0027F6-Secret_Nt7');
    expect(secretForms('cq-"q"-Secret_Nt7')).toContain('cq-\\u0022q\\u0022-Secret_Nt7');
    const forms = secretForms(KEY);
    expect(new Set(forms).size).toBe(forms.length);
    for (const form of forms.slice(1)) {
      const read = JSON.parse(`"${form}"`) as string;
      expect(read === KEY || JSON.parse(`"${read}"`) === KEY, form).toBe(true);
    }
  });

  it('echoes in answers are masked, as text and as bytes, also as JSON text in a JSON string', () => {
    for (const [name, encode] of ENCODERS) {
      const body = encode({ text: `your key is ${KEY}`, args: encode({ note: KEY }) });
      expect(body).not.toContain(KEY);
      const forms = streamSecret(KEY);
      const masked = maskEchoedText(body, forms);
      expect(masked, name).not.toContain('Secret_Nt7');
      expect(masked, name).not.toContain('Zm9v');
      expect((JSON.parse(masked) as { text: string }).text).toBe('your key is [REDACTED]');
      expect(maskEchoedBytes(Buffer.from(body), forms).toString()).toBe(masked);
    }
  });

  it('a passthrough stream masks the echo in an error event', () => {
    for (const [name, encode] of ENCODERS) {
      const event = `event: error\ndata: ${encode({ error: { message: `invalid key ${KEY}` } })}\n\n`;
      const redactor = streamRedactor(KEY)!;
      const out = Buffer.concat([redactor.push(Buffer.from(event)), redactor.flush()]);
      expect(out.toString(), name).toBe('event: error\ndata: {"error":{"message":"invalid key [REDACTED]"}}\n\n');
    }
  });

  it('a passthrough stream masks a key ending in an escaped character, wherever the network cuts the event', () => {
    const padded = 'cq-Zm9vYmFyYmF6-Secret_Nt7+=';
    for (const [name, encode] of ENCODERS) {
      const event = `event: error\ndata: ${encode({ error: { message: `invalid key ${padded}, ending in ...${encode(padded).slice(-12, -1)}` } })}\n\n`;
      for (let cut = 1; cut < event.length; cut++) {
        const redactor = streamRedactor(padded)!;
        const out = Buffer.concat([redactor.push(Buffer.from(event.slice(0, cut))), redactor.push(Buffer.from(event.slice(cut))), redactor.flush()]).toString();
        expect(out, `${name}, cut at ${cut}`).toBe('event: error\ndata: {"error":{"message":"invalid key [REDACTED], ending in ...[REDACTED]"}}\n\n');
      }
    }
  });

  it('error messages and logged bodies quoting such a body mask the credential, its head and its tail', () => {
    for (const [name, encode] of ENCODERS) {
      const echo = encode({ detail: `bad key ${KEY}` });
      const form = echo.slice(echo.indexOf('bad key ') + 8, -2);
      const quoted = echo.slice(0, echo.indexOf(form));
      expect(redactSecret(`upstream said ${echo}`, KEY), name).toBe(`upstream said ${quoted}[REDACTED]"}`);
      expect(redactSecret(`cut: ${echo.slice(0, -6)}`, KEY), name).toBe(`cut: ${quoted}[REDACTED]`);
      expect(redactSecret(`ends in …${form.slice(-30)} (error)`, KEY), name).toBe('ends in …[REDACTED] (error)');
      expect(JSON.stringify(redactForLog({ quoted: echo }, KEY)), name).not.toContain('Zm9v');
    }
  });

  it('model lists leave out an entry holding such a form', () => {
    for (const [, encode] of ENCODERS) expect(holdsSecret(`ft:${encode(KEY)}`, searchedForms(KEY))).toBe(true);
  });
});
