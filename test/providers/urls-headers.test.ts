import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/providers/anthropic.js';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';
import { geminiAdapter } from '../../src/providers/gemini.js';
import { localAdapter } from '../../src/providers/local.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { openrouterAdapter } from '../../src/providers/openrouter.js';

describe('URL building', () => {
  it('chat-speaking upstreams append /chat/completions and /models to the base', () => {
    for (const a of [openrouterAdapter, geminiAdapter, customChatAdapter]) {
      expect(a.url('https://h.example/api/v1', 'generate')).toBe('https://h.example/api/v1/chat/completions');
      expect(a.url('https://h.example/api/v1/', 'generate')).toBe('https://h.example/api/v1/chat/completions');
      expect(a.url('https://h.example/api/v1//', 'models')).toBe('https://h.example/api/v1/models');
    }
    expect(geminiAdapter.url('https://generativelanguage.googleapis.com/v1beta/openai/', 'generate')).toBe(
      'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions',
    );
    expect(customChatAdapter.url('http://h/v1', 'transcriptions')).toBe('http://h/v1/audio/transcriptions');
  });

  it('a query string on the base stays after the path', () => {
    expect(customChatAdapter.url('https://h/openai/deployments/x?api-version=2025-01-01', 'generate')).toBe('https://h/openai/deployments/x/chat/completions?api-version=2025-01-01');
  });

  it('Messages-speaking upstreams append /v1/messages; a trailing /v1 is tolerated', () => {
    for (const a of [anthropicAdapter, customMessagesAdapter]) {
      for (const base of ['https://api.anthropic.com', 'https://api.anthropic.com/', 'https://api.anthropic.com/v1', 'https://api.anthropic.com/v1/']) {
        expect(a.url(base, 'generate')).toBe('https://api.anthropic.com/v1/messages');
        expect(a.url(base, 'count_tokens')).toBe('https://api.anthropic.com/v1/messages/count_tokens');
        expect(a.url(base, 'models')).toBe('https://api.anthropic.com/v1/models');
      }
    }
    expect(customMessagesAdapter.url('https://api.example.com/anthropic', 'generate')).toBe('https://api.example.com/anthropic/v1/messages');
    expect(anthropicAdapter.normaliseBaseUrl('http://127.0.0.1:9/v1/')).toBe('http://127.0.0.1:9');
  });

  it('openai appends /responses', () => {
    expect(openaiAdapter.url('https://api.openai.com/v1', 'generate')).toBe('https://api.openai.com/v1/responses');
    expect(openaiAdapter.url('https://api.openai.com/v1/', 'count_tokens')).toBe('https://api.openai.com/v1/responses/input_tokens');
    expect(openaiAdapter.url('https://api.openai.com/v1', 'models')).toBe('https://api.openai.com/v1/models');
  });

  it('a local server root gets /v1; a path is kept', () => {
    expect(localAdapter.normaliseBaseUrl('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/v1');
    expect(localAdapter.normaliseBaseUrl('http://127.0.0.1:11434/')).toBe('http://127.0.0.1:11434/v1');
    expect(localAdapter.normaliseBaseUrl('http://127.0.0.1:1234/v1/')).toBe('http://127.0.0.1:1234/v1');
    expect(localAdapter.normaliseBaseUrl('http://box:8000/openai')).toBe('http://box:8000/openai');
    expect(localAdapter.url('http://127.0.0.1:11434', 'generate')).toBe('http://127.0.0.1:11434/v1/chat/completions');
  });

  it('gemini counts tokens on the native API next to the compat base', () => {
    expect(geminiAdapter.url('https://generativelanguage.googleapis.com/v1beta/openai', 'count_tokens', 'models/gemini-2.5-flash')).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens',
    );
    expect(geminiAdapter.url('http://127.0.0.1:9/v1beta/openai/', 'count_tokens', 'gemini-2.5-pro')).toBe('http://127.0.0.1:9/v1beta/models/gemini-2.5-pro:countTokens');
  });
});

describe('headers', () => {
  const client = {
    authorization: 'Bearer sk-svc-proxy-client',
    'x-api-key': 'sk-svc-proxy-client',
    cookie: 'session=1',
    'anthropic-version': '2026-10-21',
    'anthropic-beta': 'interleaved-thinking-2025-05-14',
    'x-forwarded-for': '1.2.3.4',
  };

  function noClientLeak(h: Record<string, string>): void {
    for (const v of Object.values(h)) expect(v).not.toContain('sk-svc-proxy-client');
    expect(h).not.toHaveProperty('cookie');
    expect(h).not.toHaveProperty('x-forwarded-for');
  }

  it('anthropic: x-api-key, the client version and betas when it spoke Messages', () => {
    const h = anthropicAdapter.headers('sk-ant-real', client, 'messages');
    expect(h['x-api-key']).toBe('sk-ant-real');
    expect(h['anthropic-version']).toBe('2026-10-21');
    expect(h['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(h).not.toHaveProperty('authorization');
    noClientLeak(h);
  });

  it('anthropic: default version and no client betas for a converted request', () => {
    const h = anthropicAdapter.headers('sk-ant-real', client, 'chat');
    expect(h['anthropic-version']).toBe('2023-06-01');
    expect(h).not.toHaveProperty('anthropic-beta');
    noClientLeak(h);
  });

  it('anthropic OAuth tokens go as Bearer with the oauth beta', () => {
    const h = anthropicAdapter.headers('sk-ant-oat01-abc', {}, 'chat');
    expect(h.authorization).toBe('Bearer sk-ant-oat01-abc');
    expect(h['anthropic-beta']).toBe('oauth-2025-04-20');
    expect(h).not.toHaveProperty('x-api-key');
  });

  it('custom b: x-api-key only when a credential exists', () => {
    expect(customMessagesAdapter.headers(undefined, client, 'messages')).not.toHaveProperty('x-api-key');
    noClientLeak(customMessagesAdapter.headers(undefined, client, 'messages'));
    expect(customMessagesAdapter.headers('k', {}, 'chat')['x-api-key']).toBe('k');
  });

  it('bearer upstreams carry the stored credential only', () => {
    for (const a of [openaiAdapter, openrouterAdapter, geminiAdapter, customChatAdapter]) {
      const h = a.headers('real-key', client, 'chat');
      expect(h.authorization).toBe('Bearer real-key');
      expect(h).not.toHaveProperty('anthropic-version');
      noClientLeak(h);
    }
    expect(customChatAdapter.headers(undefined, client, 'chat')).not.toHaveProperty('authorization');
  });

  it('local servers get no auth at all', () => {
    const h = localAdapter.headers('ignored', client, 'chat');
    expect(h).not.toHaveProperty('authorization');
    noClientLeak(h);
    expect(h['content-type']).toBe('application/json');
  });
});
