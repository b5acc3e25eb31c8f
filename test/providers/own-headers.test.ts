import { describe, expect, it } from 'vitest';
import { settableFixedHeaderProblem } from '../../src/config/header-settings.js';
import { endpointSchema, providerSettingsSchema } from '../../src/config/schema.js';
import { anthropicAdapter } from '../../src/providers/anthropic.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';
import { withOwnHeaders } from '../../src/providers/own-headers.js';

const base = { url: 'https://gw.example/v1', format: 'a' as const, hasCredential: true, created: '2026-11-27T00:00:00Z' };

describe('a custom endpoint’s own headers', () => {
  it('keeps the shared adapter when the endpoint says nothing', () => {
    expect(withOwnHeaders(customChatAdapter, endpointSchema.parse(base))).toBe(customChatAdapter);
  });

  it('moves the key to the header it names and adds the fixed ones, on every call', () => {
    const endpoint = endpointSchema.parse({ ...base, authHeader: 'api-key', headers: { 'x-team': 'ml', 'OpenAI-Project': 'p1' } });
    const adapter = withOwnHeaders(customChatAdapter, endpoint);
    expect(withOwnHeaders(customChatAdapter, endpoint), 'made once per config snapshot').toBe(adapter);
    const headers = adapter.headers('sk-gw-1234', {}, 'chat');
    expect(headers).toEqual({ 'content-type': 'application/json', 'user-agent': 'svc-proxy', 'api-key': 'sk-gw-1234', 'x-team': 'ml', 'openai-project': 'p1' });
    expect(adapter.headers(undefined, {}, 'chat')).toEqual({ 'content-type': 'application/json', 'user-agent': 'svc-proxy', 'x-team': 'ml', 'openai-project': 'p1' });
  });

  it('authorization means Bearer, for a Messages endpoint too (instead of its x-api-key)', () => {
    const adapter = withOwnHeaders(customMessagesAdapter, endpointSchema.parse({ ...base, format: 'b', authHeader: 'authorization' }));
    const headers = adapter.headers('gw-key', {}, 'chat');
    expect(headers.authorization).toBe('Bearer gw-key');
    expect(headers['x-api-key']).toBeUndefined();
    expect(headers['anthropic-version']).toBe('2023-06-01');
  });

  it('a built-in provider behind a gateway: Anthropic’s key as Bearer, OpenAI’s in a header of the gateway’s', () => {
    const anthropic = withOwnHeaders(anthropicAdapter, providerSettingsSchema.parse({ authHeader: 'authorization', headers: { 'x-gateway-team': 'ml' } }));
    const a = anthropic.headers('sk-ant-1', { 'anthropic-beta': 'tools-2024' }, 'messages');
    expect([a.authorization, a['x-api-key'], a['x-gateway-team'], a['anthropic-beta']]).toEqual(['Bearer sk-ant-1', undefined, 'ml', 'tools-2024']);
    expect(anthropic.kind).toBe(anthropicAdapter.kind);
    const openai = withOwnHeaders(openaiAdapter, providerSettingsSchema.parse({ authHeader: 'x-gateway-key' }));
    const o = openai.headers('sk-proj-1', {}, 'responses');
    expect([o.authorization, o['x-gateway-key']]).toEqual([undefined, 'sk-proj-1']);
    expect(providerSettingsSchema.safeParse({ headers: { 'x-api-key': 'k' } }).success).toBe(false);
  });

  it('a hand-edited config.json with auth or client-owned fixed headers is refused, naming the header', () => {
    const bad = endpointSchema.safeParse({ ...base, headers: { Authorization: 'Basic abc', 'x-ok': 'fine', host: 'h' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['headers.Authorization', 'authorization cannot be a fixed header (a credential goes in the keychain: store the key and name the header that carries it as the auth header)'],
      ['headers.host', 'host cannot be a fixed header (the HTTP client sets it)'],
    ]);
    expect(endpointSchema.safeParse({ ...base, headers: { 'x-a': 'line\r\nInjected: 1' } }).error?.issues[0]?.message).toBe('the value of x-a has a line break or NUL in it');
    // a key in a file already written still loads (config check names it); setting one is refused
    expect(endpointSchema.safeParse({ ...base, headers: { 'x-goog-api-key': 'AIza' + 'x'.repeat(35) } }).success).toBe(true);
    for (const [name, value, why] of [
      ['x-goog-api-key', 'anything', 'x-goog-api-key cannot be a fixed header (a credential goes in the keychain'],
      ['Ocp-Apim-Subscription-Key', 'abc', 'ocp-apim-subscription-key cannot be a fixed header'],
      ['x-custom', 'sk-ant-api03-' + 'x'.repeat(20), 'the value of x-custom looks like a key'],
      ['x-custom', 'Bearer abcdefgh12345', 'the value of x-custom looks like a key'],
    ]) {
      expect(settableFixedHeaderProblem(name!, value!), `${name}: ${value}`).toContain(why);
    }
    expect(settableFixedHeaderProblem('x-team', 'ml')).toBeUndefined();
    expect(endpointSchema.safeParse({ ...base, authHeader: 'content-length' }).error?.issues[0]?.message).toBe('content-length cannot carry the credential');
  });
});
