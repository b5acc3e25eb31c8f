import { describe, expect, it } from 'vitest';
import { validateSlug, validateUrl } from '../../src/config/upstream-values.js';
import { displayUrl } from '../../src/util/display-url.js';

describe('validateUrl', () => {
  it('refuses URLs with credentials in them, without echoing the secret', () => {
    let message = '';
    try {
      validateUrl('https://user:hunter2@example.com/v1', 'Base URL');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/keychain/);
    expect(message).not.toContain('hunter2');
  });

  it('refuses a #fragment, which would swallow every path appended to the base, and names a missing scheme', () => {
    for (const url of ['http://127.0.0.1:8000/v1#frag', 'http://127.0.0.1:8000/v1/#', 'http://h/v1#']) {
      expect(() => validateUrl(url, 'Base URL'), url).toThrow(/cannot have a #fragment/);
    }
    expect(() => validateUrl('localhost:8000/v1', '--url')).toThrow('--url: "localhost:8000/v1" has no scheme; write http://localhost:8000/v1 (or https://).');
    expect(() => validateUrl('ftp://x', '--url')).toThrow('only http and https');
    expect(validateUrl('http://127.0.0.1:8000/v1?api-version=2024', 'Base URL')).toBe('http://127.0.0.1:8000/v1?api-version=2024');
    for (const url of ['https://gw.example/v1?api_key=SECRETQ', 'https://gw.example/v1?key=abc', 'https://gw.example/v1?x=sk-proj-' + 'a'.repeat(20)]) {
      let message = '';
      try {
        validateUrl(url, 'Base URL');
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message, url).toBe('Base URL: put credentials in the keychain, not in the URL.');
    }
  });
});

describe('validateUrl and a URL shown masked', () => {
  it('refuses *** as a query value or as user info: a masked URL given back would send it upstream', () => {
    expect(() => validateUrl('https://gw.example/v1?sig=***', 'Base URL')).toThrow('Base URL: *** stands for a value shown masked, not a value; type the URL whole.');
    expect(() => validateUrl('https://***@gw.example/v1', 'Base URL')).toThrow('Base URL: put credentials in the keychain, not in the URL.');
    expect(validateUrl('https://gw.example/v1?team=ml', 'Base URL')).toBe('https://gw.example/v1?team=ml');
  });
});

describe('validateUrl and a key in the query after a percent escape', () => {
  const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz';

  it('refuses a key right after %20 or %2F (a value of several words, a path in a value) as one standing alone', () => {
    for (const query of [`?note=a%20${key}`, `?route=openai%2F${key}`, `?note=a ${key}`, `?x=${key}`]) {
      expect(() => validateUrl(`https://gw.example/v1${query}`, 'Base URL'), query).toThrow('Base URL: put credentials in the keychain, not in the URL.');
    }
  });

  it('keeps a value where sk- only ends a word, escaped or not', () => {
    for (const query of ['?team=a%20task-AbCdEfGhIjKlMnOpQrStUv', '?team=%2Fask-AbCdEfGhIjKlMnOpQrStUv']) {
      expect(validateUrl(`https://gw.example/v1${query}`, 'Base URL')).toBe(`https://gw.example/v1${query}`);
    }
  });
});

describe('validateUrl refusals quote the value safely', () => {
  const messageOf = (raw: string): string => {
    try {
      validateUrl(raw, '--url');
    } catch (err) {
      return (err as Error).message;
    }
    return '';
  };

  it('never quotes a key pasted where the URL goes, a password in a URL it cannot parse, or control codes', () => {
    const key = 'sk-ant-api03-' + 'Q'.repeat(40);
    for (const raw of [key, ` ${key} `, `${key}:443/v1`]) {
      const m = messageOf(raw);
      expect(m, raw).toMatch(/^--url: /);
      expect(m, raw).not.toContain('QQQQ');
    }
    const unparsable = messageOf('http://user:hunter2@[bad/v1');
    expect(unparsable).toMatch(/is not a valid URL/);
    expect(unparsable).not.toContain('hunter2');
    const escape = messageOf('http://[\x1b]0;PWNED\x07');
    expect(escape).toMatch(/is not a valid URL/);
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(escape).not.toMatch(/[\u0000-\u001f]/);
  });
});

describe('validateSlug', () => {
  it('names the kind of upstream and the rule a bad name breaks', () => {
    expect(validateSlug('my-vllm', 'Endpoint')).toBe('my-vllm');
    expect(() => validateSlug('Bad Name', 'Endpoint')).toThrow(/^Endpoint name "Bad Name": /);
    expect(() => validateSlug(7, 'Local server')).toThrow(/^Local server name "7": /);
  });
});

describe('validateUrl and displayUrl agree on which query names carry a credential', () => {
  it('refuses every query value displayUrl would show masked by its name', () => {
    for (const query of ['?sig=abc', '?secret=abc', '?password=abc', '?X-Amz-Signature=abc', '?client_credentials=abc', '?auth=abc', '?pwd=abc']) {
      const url = `https://gw.example/v1${query}`;
      expect(displayUrl(url), query).toContain('=***');
      expect(() => validateUrl(url, 'Base URL'), query).toThrow('Base URL: put credentials in the keychain, not in the URL.');
    }
  });

  it('keeps a query value displayUrl shows as it is', () => {
    const url = 'https://gw.example/v1?api-version=2024-06-01&team=ml';
    expect(displayUrl(url)).toBe(url);
    expect(validateUrl(url, 'Base URL')).toBe(url);
  });
});
