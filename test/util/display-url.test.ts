import { describe, expect, it } from 'vitest';
import { displayUrl } from '../../src/util/display-url.js';

describe('displayUrl', () => {
  it('masks userinfo', () => {
    expect(displayUrl('http://user:pa55@proxy.local:3128')).toBe('http://***@proxy.local:3128');
    expect(displayUrl('https://token@host/v1?x=1')).toBe('https://***@host/v1?x=1');
    // an @ after the host is path, not userinfo
    expect(displayUrl('https://host/v1/@me')).toBe('https://host/v1/@me');
  });

  it('masks secret-looking query values, keeping the names and the others', () => {
    expect(displayUrl('https://gw.example/v1?key=abc&api_key=def&api-version=2024-10-21&token=ghi#frag')).toBe('https://gw.example/v1?key=***&api_key=***&api-version=2024-10-21&token=***#frag');
    expect(displayUrl('https://gw.example/v1?access_token=a&X-Api-Key=b&sig=c&password=d')).toBe('https://gw.example/v1?access_token=***&X-Api-Key=***&sig=***&password=***');
    // a key-shaped value under any name
    expect(displayUrl('https://gw.example/v1?q=sk-proj-AbCdEfGhIjKlMnOpQrStUv')).toBe('https://gw.example/v1?q=***');
    // also right after a percent escape: a value of several words, a path in a value
    expect(displayUrl('https://gw.example/v1?q=a%20sk-proj-AbCdEfGhIjKlMnOpQrStUv&v=1')).toBe('https://gw.example/v1?q=***&v=1');
    expect(displayUrl('https://gw.example/v1?route=openai%2Fsk-proj-AbCdEfGhIjKlMnOpQrStUv')).toBe('https://gw.example/v1?route=***');
    // not where sk- ends a word
    expect(displayUrl('https://gw.example/v1?team=a%20task-AbCdEfGhIjKlMnOpQrStUv')).toBe('https://gw.example/v1?team=a%20task-AbCdEfGhIjKlMnOpQrStUv');
  });

  it('leaves an ordinary URL, or text that is no URL, as it was', () => {
    for (const u of ['https://api.anthropic.com', 'http://127.0.0.1:11434/v1', 'https://x/v1?api-version=1', 'not a url', '']) expect(displayUrl(u)).toBe(u);
  });
});
