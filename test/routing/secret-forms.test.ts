/**
 * A credential holding `"` or `\` (a custom endpoint's key may) stands JSON-escaped in JSON bodies,
 * SSE data and error messages that quote a body, and escaped twice where JSON text sits in a JSON
 * string (tool-call arguments, logged bodies): every form is masked wherever the raw one is.
 */
import { describe, expect, it } from 'vitest';
import { maskEchoedBytes, maskEchoedText } from '../../src/routing/echoed-secrets.js';
import { redactForLog, redactSecret, streamSecret } from '../../src/routing/redact.js';
import { secretForms } from '../../src/util/secret-forms.js';
import { SplitSecretHold } from '../../src/routing/split-secret.js';

const KEY = 'cq-quo"ted\\back-Secret_Lm9';
const ONCE = 'cq-quo\\"ted\\\\back-Secret_Lm9';
const TWICE = 'cq-quo\\\\\\"ted\\\\\\\\back-Secret_Lm9';

function expectNoForm(text: string): void {
  for (const form of [KEY, ONCE, TWICE]) expect(text.includes(form), `${form} in ${text}`).toBe(false);
}

describe('the forms of a credential', () => {
  it('are the credential, escaped once and twice; one without " or \\ has one form', () => {
    // and the forms of encoders writing " as \u0022 (.NET's): secret-forms-html-safe.test.ts
    expect(secretForms(KEY)).toEqual(expect.arrayContaining([KEY, ONCE, TWICE]));
    expect(secretForms(KEY)[0]).toBe(KEY);
    expect(JSON.parse(`"${ONCE}"`)).toBe(KEY);
    expect(JSON.parse(`"${TWICE}"`)).toBe(ONCE);
    expect(secretForms('sk-proj-plain-key-1b2_Kd')).toEqual(['sk-proj-plain-key-1b2_Kd']);
    expect(streamSecret(KEY)).toEqual(secretForms(KEY));
  });

  it('error messages: the escaped credential, its tail and its head are masked (a non-JSON body is quoted as JSON)', () => {
    const messages = [
      `cq: upstream answered HTTP 401 with a non-JSON body: ${JSON.stringify(`invalid key ${KEY}`)}`,
      `bad key ${ONCE}, ending in …${ONCE.slice(-6)} and ${TWICE}`,
      `key starting ${ONCE.slice(0, 12)}`,
    ];
    for (const m of messages) {
      const out = redactSecret(m, KEY);
      expectNoForm(out);
      expect(out).not.toContain('Secret_Lm9');
      expect(out).toContain('[REDACTED]');
    }
    expect(redactSecret('nothing to see here', KEY)).toBe('nothing to see here');
  });

  it('error messages: an escaped echo, whole, cut short or its last characters, leaves nothing of the key', () => {
    // each form's head and tail is widened as far as any form matches, not cut where its own escaping differs
    expect(redactSecret(`bad key ${ONCE} given`, KEY)).toBe('bad key [REDACTED] given');
    expect(redactSecret(`key starting ${ONCE.slice(0, -3)}`, KEY)).toBe('key starting [REDACTED]');
    expect(redactSecret(`key ending …${ONCE.slice(-16)}, error`, KEY)).toBe('key ending …[REDACTED], error');
    expect(redactSecret(`key ending …${TWICE.slice(-20)}, error`, KEY)).toBe('key ending …[REDACTED], error');
  });

  it('answers and stream events: every form masked, in text and in bytes', () => {
    const forms = streamSecret(KEY);
    const body = JSON.stringify({ text: `key ${KEY}`, args: JSON.stringify({ note: KEY }) });
    const sse = `data: ${body}\n\n`;
    for (const text of [body, sse]) {
      const masked = maskEchoedText(text, forms);
      expectNoForm(masked);
      expect(JSON.parse(masked.replace(/^data: /, ''))).toEqual({ text: 'key [REDACTED]', args: JSON.stringify({ note: '[REDACTED]' }) });
      expect(maskEchoedBytes(Buffer.from(text), forms).toString()).toBe(masked);
    }
  });

  it('logged bodies: a credential in a string, and in JSON text inside one', () => {
    const logged = JSON.stringify(redactForLog({ messages: [{ content: `say ${KEY}` }], tool: { arguments: JSON.stringify({ note: KEY }) } }, KEY));
    expectNoForm(logged);
  });

  it('a converted stream: the escaped credential split across argument deltas is held until whole', () => {
    const forms = streamSecret(KEY);
    const args = JSON.stringify({ note: `key ${KEY}` });
    const start = args.indexOf(ONCE);
    for (let cut = start; cut <= start + ONCE.length; cut++) {
      const hold = new SplitSecretHold(forms);
      const pieces = [args.slice(0, cut), args.slice(cut)].map((json) => hold.pass({ type: 'arguments_delta', index: 1, json }));
      pieces.push(hold.release(1));
      // each piece goes out as a JSON string (escaped once more) and is masked on its own
      const out = pieces.map((p) => (p?.type === 'arguments_delta' ? maskEchoedText(JSON.stringify(p.json), forms) : '""'));
      for (const o of out) expectNoForm(o);
      expect(JSON.parse(out.map((o) => JSON.parse(o) as string).join(''))).toEqual({ note: 'key [REDACTED]' });
    }
  });
});

describe('a credential holding /', () => {
  // a base64 key may hold `/`; PHP's json_encode and some Java encoders write it `\/`
  const SLASHED = 'cq-base64/Key+Body/Secret_Qz7';
  const ESCAPED = 'cq-base64\\/Key+Body\\/Secret_Qz7';

  it('has its \\/ form, escaped again where JSON text sits in a string', () => {
    const forms = secretForms(SLASHED);
    // and .NET's \u002B for the + (secret-forms-html-safe.test.ts)
    expect(forms).toEqual(expect.arrayContaining([SLASHED, ESCAPED, 'cq-base64\\\\/Key+Body\\\\/Secret_Qz7']));
    expect(forms[0]).toBe(SLASHED);
    expect(JSON.parse(`"${ESCAPED}"`)).toBe(SLASHED);
    expect(JSON.parse(`"${'cq-base64\\\\/Key+Body\\\\/Secret_Qz7'}"`)).toBe(ESCAPED);
  });

  it('an upstream writing \\/ has it masked in answers, streams, error messages and logs', () => {
    const phpJson = JSON.stringify({ text: `key ${SLASHED}` }).replaceAll('/', '\\/');
    const forms = streamSecret(SLASHED);
    const masked = maskEchoedText(`data: ${phpJson}\n\n`, forms);
    expect(masked).toBe('data: {"text":"key [REDACTED]"}\n\n');
    expect(maskEchoedBytes(Buffer.from(phpJson), forms).toString()).toBe('{"text":"key [REDACTED]"}');
    expect(redactSecret(`upstream said ${phpJson}`, SLASHED)).not.toContain('Secret_Qz7');
    const logged = JSON.stringify(redactForLog({ raw: phpJson }, SLASHED));
    expect(logged).not.toContain('Secret_Qz7');
  });

  it('a credential with both " and / has each escaping, and each is masked', () => {
    const key = 'cq-"both"/Secret_Qz7';
    const forms = secretForms(key);
    expect(forms).toContain('cq-\\"both\\"\\/Secret_Qz7');
    expect(forms).toContain('cq-\\"both\\"/Secret_Qz7');
    for (const form of forms) expect(maskEchoedText(`x ${form} y`, forms)).toBe('x [REDACTED] y');
  });
});
