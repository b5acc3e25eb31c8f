import { describe, expect, it } from 'vitest';
import { redactBody, redactString } from '../../src/log/redact-body.js';
import { PNG, inlineMediaBody } from './inline-media.js';


describe('redactBody', () => {
  it('drops credential-named fields whatever they hold', () => {
    const out = redactBody({ headers: { Authorization: 'Bearer abc', 'x-api-key': 'anything', 'X-Goog-Api-Key': 'k' }, api_key: 'v', max_tokens: 10 });
    expect(out).toEqual({ headers: { Authorization: '[redacted]', 'x-api-key': '[redacted]', 'X-Goog-Api-Key': '[redacted]' }, api_key: '[redacted]', max_tokens: 10 });
  });

  it('redacts provider and service keys inside any text', () => {
    const keys = [
      'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345',
      'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz',
      'sk-or-v1-0123456789abcdef0123456789abcdef',
      'sk-svc-proxy-3kTQm8VdPa1xZr9yLw2bNc5Hj7Fe4Gs6',
      'AIzaSyA1234567890abcdefghijklmnopqrstuv',
    ];
    for (const k of keys) {
      const out = JSON.stringify(redactBody({ messages: [{ role: 'user', content: `my key is ${k}, ok?` }] }));
      expect(out).not.toContain(k.slice(8));
      expect(out).toContain('[redacted]');
      expect(out).toContain(', ok?');
    }
    expect(redactString('Authorization: Bearer abcdefghijklmnop')).toBe('Authorization: Bearer [redacted]');
    // ordinary words that merely start with sk- stay
    expect(redactString('sk-learn is a library')).toBe('sk-learn is a library');
  });

  it('masks a key right after a JSON escape: JSON text in a string, a truncated body logged as text', () => {
    const keys = ['sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz', `AIza${'B'.repeat(35)}`, 'gsk_AbCdEfGhIjKlMnOpQrStUv', 'xai-AbCdEfGhIjKlMnOpQrStUv'];
    for (const k of keys) {
      const args = JSON.stringify({ note: `line one\n${k}\tand\t${k}` });
      const logged = JSON.stringify(redactBody({ tool_calls: [{ function: { arguments: args } }] }));
      expect(logged).not.toContain(k.slice(5));
      const truncated = JSON.stringify({ messages: [{ content: `a\n${k} b` }] }).slice(0, -3);
      expect(redactBody(truncated)).not.toContain(k.slice(5));
    }
    // a word before sk- still says it is no key
    expect(redactString('a task-AbCdEfGhIjKlMnOpQr')).toBe('a task-AbCdEfGhIjKlMnOpQr');
  });

  it('masks a key right after a \\u escape: JSON text from an encoder that writes " or a line break as \\u0022, \\u000a', () => {
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz';
    // .NET's default encoder writes " as \u0022; others write a line break as \u000a
    const args = `{"note":"say \\u0022${key}\\u0022\\u000a${key}"}`;
    expect(JSON.parse(args)).toEqual({ note: `say "${key}"\n${key}` });
    const logged = redactBody({ tool_calls: [{ function: { arguments: args } }] });
    expect(logged).toEqual({ tool_calls: [{ function: { arguments: '{"note":"say \\u0022[redacted]\\u0022\\u000a[redacted]"}' } }] });
    expect(redactString(`\\u0022abc${key}`)).toBe(`\\u0022abc${key}`);
  });

  it('replaces inline images and audio of every dialect with a size note', () => {
    const body = {
      ...inlineMediaBody(PNG),
      input: [{ type: 'input_image', image_url: `data:image/jpeg;base64,${PNG}` }],
      output: [{ type: 'image_generation_call', result: PNG }],
    };
    const out = JSON.stringify(redactBody(body));
    expect(out).not.toContain(PNG.slice(0, 40));
    expect(out).toContain('data:image/png;base64,[media redacted, 96 chars]');
    expect(out).toContain('"media_type":"image/png"');
    expect(out).toContain('"format":"wav"');
    expect(out).toContain('"filename":"a.pdf"');
  });

  it('redacts data: URLs with parameters, and reads a long crafted string in linear time', () => {
    expect(redactString(`see data:audio/wav;rate=16000;codec=pcm;base64,${PNG}", ok`)).toBe('see data:audio/wav;rate=16000;codec=pcm;base64,[media redacted, 96 chars]", ok');
    // many "data:" starts, each followed by a long parameter chain that never reaches ";base64,"
    const crafted = `base64, ${'data:;a='.repeat(12_000)}`;
    const start = performance.now();
    expect(redactString(crafted)).toBe(crafted);
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it('parses JSON text and bytes, keeps other text as redacted text, never mutates its input', () => {
    expect(redactBody(Buffer.from('{"a":"sk-abcdefghijklmnopqrstuv"}'))).toEqual({ a: '[redacted]' });
    expect(redactBody('data: {"x":1}\n\n')).toBe('data: {"x":1}\n\n');
    expect(redactBody('{not json')).toBe('{not json');
    const input = { x_api_key: 'k', api_key: 'secret-value' };
    redactBody(input);
    expect(input.api_key).toBe('secret-value');
    expect(redactBody(undefined)).toBeUndefined();
  });

  it('keeps ordinary content intact', () => {
    const body = { model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hello' }], data: 'short' };
    expect(redactBody(body)).toEqual(body);
  });
});
