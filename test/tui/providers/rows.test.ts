import { describe, expect, it } from 'vitest';
import { baseUrlText, credentialBrief, credentialText, isConnected, kindText, lastErrorText, modelsText, upstreamRows } from '../../../src/tui/providers/rows.js';

const upstreams = {
  providers: [
    { name: 'anthropic' as const, connected: true, source: 'keychain' as const, last4: 'abcd', baseUrl: 'https://api.anthropic.com', baseUrlOverridden: false, enabled: true },
    { name: 'openai' as const, connected: false, source: null, last4: '', baseUrl: 'http://127.0.0.1:9/v1', baseUrlOverridden: true, enabled: true },
  ],
  endpoints: [
    { slug: 'open', url: 'http://127.0.0.1:8000/v1', format: 'a' as const, hasCredential: false, source: null, last4: '', created: '' },
    { slug: 'lost', url: 'https://example.com', format: 'b' as const, hasCredential: true, source: null, last4: '', created: '' },
  ],
  locals: [{ slug: 'lm', url: 'http://127.0.0.1:11434', detected: false, created: '' }],
};

describe('provider rows', () => {
  const counts = { anthropic: 12, open: 3, lm: 2, ollama: 5 };
  const rows = upstreamRows(upstreams, counts);

  it('lists built-ins, endpoints, locals, then servers found running that are not configured', () => {
    expect(rows.map((r) => `${r.name}:${kindText(r)}`)).toEqual(['anthropic:built-in', 'openai:built-in', 'open:endpoint A', 'lost:endpoint B', 'lm:local', 'ollama:local (found)']);
  });

  it('connected, credential source, base URL and model count per kind', () => {
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect([by.anthropic, by.openai, by.open, by.lost, by.lm].map((r) => isConnected(r!))).toEqual([true, false, true, false, true]);
    expect(credentialText(by.anthropic!)).toBe('keychain …abcd');
    expect(credentialText(by.openai!)).toBe('-');
    expect(credentialText(by.open!)).toBe('none needed');
    expect(credentialText(by.lost!)).toBe('missing');
    expect(baseUrlText(by.openai!)).toBe('http://127.0.0.1:9/v1 (override)');
    expect(modelsText(by.anthropic!, counts)).toBe('12');
    expect(modelsText(by.openai!, counts)).toBe('-');
    expect(modelsText(by.anthropic!, undefined)).toBe('…');
    expect(modelsText(by.anthropic!, {})).toBe('?');
    expect(modelsText(by.anthropic!, {}, { anthropic: { code: 'upstream_auth_failed', reason: 'the provider refused the credential (401)' } })).toBe('!');
  });

  it('the credential in a word, for a narrow column: where it lives, or what is wrong', () => {
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect([by.anthropic, by.openai, by.open, by.lost, by.lm, by.ollama].map((r) => credentialBrief(r!))).toEqual(['keychain', '-', 'none', 'missing', 'none', 'none']);
    const openai = upstreams.providers[1]!;
    const problem = 'OPENAI_API_KEY, which the daemon reads for openai, is empty';
    const brief = (info: object) => credentialBrief({ kind: 'provider', name: 'openai', info: { ...openai, ...info } });
    expect(brief({ credentialProblem: problem })).toBe('unusable');
    expect(brief({ credentialProblem: problem, unusableStored: true })).toBe('unusable');
    expect(brief({ connected: true, source: 'env', last4: '1234' })).toBe('env var');
    expect(brief({ connected: true, source: 'file', last4: '1234' })).toBe('file');
  });

  it('a base URL holding a user and password or a key parameter is shown masked', () => {
    const hand = {
      ...upstreams,
      providers: [{ ...upstreams.providers[1]!, baseUrl: 'http://me:pa55@127.0.0.1:9/v1?api_key=s3cret', baseUrlOverridden: true }],
      endpoints: [{ ...upstreams.endpoints[0]!, url: 'http://127.0.0.1:8000/v1?token=s3cret' }],
    };
    const by = Object.fromEntries(upstreamRows(hand, {}).map((r) => [r.name, r]));
    expect(baseUrlText(by.openai!)).toBe('http://***@127.0.0.1:9/v1?api_key=*** (override)');
    expect(baseUrlText(by.open!)).toBe('http://127.0.0.1:8000/v1?token=***');
  });

  it('last error text', () => {
    expect(lastErrorText(undefined, () => '')).toBe('-');
    expect(lastErrorText({ time: 't', status: 0, code: 'upstream_timeout' }, () => '2m ago')).toBe('no answer upstream_timeout, 2m ago');
    expect(lastErrorText({ time: 't', status: 429 }, () => 'just now')).toBe('429, just now');
  });
});
