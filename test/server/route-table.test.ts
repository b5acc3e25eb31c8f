import { describe, expect, it } from 'vitest';
import { isProxyPath, matchProxyPath, protocolOfPath } from '../../src/server/route-table.js';

const ok = (path: string, method: string) => {
  const m = matchProxyPath(path, method);
  if (!m.ok) throw new Error(`${method} ${path}: ${m.code}`);
  return m.route;
};
const fail = (path: string, method = 'POST') => {
  const m = matchProxyPath(path, method);
  if (m.ok) throw new Error(`${method} ${path} matched`);
  return m;
};

describe('route table', () => {
  it('protocol A endpoints', () => {
    expect(ok('/protocol-a/v1/chat/completions', 'POST')).toEqual({ protocol: 'a', endpoint: 'chat' });
    expect(ok('/protocol-a/v1/responses', 'POST')).toEqual({ protocol: 'a', endpoint: 'responses' });
    expect(ok('/protocol-a/v1/responses/resp_123', 'GET')).toEqual({ protocol: 'a', endpoint: 'responses_item' });
    expect(ok('/protocol-a/v1/responses/resp_123', 'DELETE')).toEqual({ protocol: 'a', endpoint: 'responses_item' });
    expect(ok('/protocol-a/v1/responses/resp_123/input_items', 'GET')).toEqual({ protocol: 'a', endpoint: 'responses_item' });
    expect(ok('/protocol-a/v1/models', 'GET')).toEqual({ protocol: 'a', endpoint: 'models' });
    expect(ok('/protocol-a/v1/models/openai%2Fgpt-5.4', 'GET')).toEqual({ protocol: 'a', endpoint: 'model' });
    expect(ok('/protocol-a/v1/models/openrouter/anthropic/claude-sonnet-4.5', 'GET')).toEqual({ protocol: 'a', endpoint: 'model' });
    expect(ok('/protocol-a/v1/audio/transcriptions', 'POST')).toEqual({ protocol: 'a', endpoint: 'transcriptions' });
    expect(ok('/protocol-a/v1/conversations', 'POST')).toEqual({ protocol: 'a', endpoint: 'conversations' });
    for (const method of ['GET', 'POST', 'DELETE']) expect(ok('/protocol-a/v1/conversations/conv_1/items', method)).toEqual({ protocol: 'a', endpoint: 'conversations' });
    expect(fail('/protocol-a/v1/conversations', 'GET')).toMatchObject({ status: 405, code: 'method_not_allowed', allow: 'POST' });
    expect(fail('/protocol-a/v1/conversations/', 'GET')).toMatchObject({ status: 405 });
  });

  it('protocol B endpoints, for SDKs that append /v1/messages and clients that append /messages', () => {
    for (const base of ['/protocol-b/v1', '/protocol-b/v1/v1', '/protocol-b']) {
      expect(ok(`${base}/messages`, 'POST')).toEqual({ protocol: 'b', endpoint: 'messages' });
      expect(ok(`${base}/messages/count_tokens`, 'POST')).toEqual({ protocol: 'b', endpoint: 'count_tokens' });
      expect(ok(`${base}/models`, 'GET')).toEqual({ protocol: 'b', endpoint: 'models' });
      expect(ok(`${base}/models/anthropic%2Fclaude-sonnet-4-5`, 'GET')).toEqual({ protocol: 'b', endpoint: 'model' });
    }
  });

  it('the same under a group base', () => {
    expect(ok('/g/team-x/protocol-a/v1/chat/completions', 'POST')).toEqual({ protocol: 'a', group: 'team-x', endpoint: 'chat' });
    expect(ok('/g/team_x/protocol-b/v1/messages', 'POST')).toEqual({ protocol: 'b', group: 'team_x', endpoint: 'messages' });
    expect(ok('/g/t1/protocol-b/v1/v1/messages/count_tokens', 'POST')).toEqual({ protocol: 'b', group: 't1', endpoint: 'count_tokens' });
    expect(ok('/g/t1/protocol-a/v1/models', 'GET')).toEqual({ protocol: 'a', group: 't1', endpoint: 'models' });
    expect(ok('/g/t1/protocol-b/v1/models/gpt-5.4%2Ffast', 'GET')).toEqual({ protocol: 'b', group: 't1', endpoint: 'model' });
  });

  it('tolerates a trailing slash', () => {
    expect(ok('/protocol-a/v1/models/', 'GET').endpoint).toBe('models');
    expect(ok('/protocol-b/v1/messages/', 'POST').endpoint).toBe('messages');
  });

  it('answers embeddings, images and speech with unsupported_endpoint', () => {
    for (const p of ['/embeddings', '/images/generations', '/images/edits', '/images/variations', '/audio/speech']) {
      const m = fail(`/protocol-a/v1${p}`);
      expect(m).toMatchObject({ status: 404, code: 'unsupported_endpoint', protocol: 'a' });
      expect(m.message).toMatch(/not offered/);
      expect(fail(`/g/grp/protocol-a/v1${p}`)).toMatchObject({ code: 'unsupported_endpoint' });
    }
  });

  it('POST /responses/input_tokens counts; /responses/compact says it is not offered — neither is read as a response id', () => {
    for (const base of ['/protocol-a/v1', '/g/grp/protocol-a/v1']) {
      expect(ok(`${base}/responses/input_tokens`, 'POST').endpoint).toBe('input_tokens');
      const m = matchProxyPath(`${base}/responses/compact`, 'POST');
      expect(m).toMatchObject({ ok: false, status: 404, code: 'unsupported_endpoint', protocol: 'a' });
      expect((m as { message: string }).message).toMatch(/not offered/);
    }
    expect(ok('/protocol-a/v1/responses/resp_1/input_items', 'GET').endpoint).toBe('responses_item');
  });

  it('unknown paths are 404 not_found in the base\'s shape', () => {
    expect(fail('/protocol-a/v1/completions')).toMatchObject({ status: 404, code: 'not_found', protocol: 'a' });
    expect(fail('/protocol-b/v1/complete')).toMatchObject({ status: 404, code: 'not_found', protocol: 'b' });
    expect(fail('/g/x/protocol-b/v1/nope')).toMatchObject({ status: 404, protocol: 'b' });
    expect(fail('/g/x/other')).toMatchObject({ status: 404, protocol: 'a' });
    expect(fail('/protocol-abc/v1/chat/completions')).toMatchObject({ status: 404, protocol: 'a' });
  });

  it('bad group slugs are group_not_found', () => {
    expect(fail('/g/Bad!/protocol-a/v1/chat/completions')).toMatchObject({ status: 404, code: 'group_not_found', protocol: 'a' });
    expect(fail('/g//protocol-b/v1/messages')).toMatchObject({ code: 'group_not_found', protocol: 'b' });
    // named as the client wrote it, with what a group name may hold
    expect(fail('/g/%C3%BCn%C3%AF/protocol-a/v1/chat/completions')).toMatchObject({ code: 'group_not_found', message: expect.stringMatching(/^No model group named "ünï": group names are lowercase letters, digits/) });
    expect(fail('/g/%E0%A4%A/protocol-a/v1/chat/completions')).toMatchObject({ code: 'group_not_found', message: expect.stringContaining('"%E0%A4%A"') });
    // a name refused for its first character or its length is told the rule it breaks
    for (const name of ['-team', '_team', 'a'.repeat(64)]) {
      expect(fail(`/g/${name}/protocol-a/v1/chat/completions`)).toMatchObject({ code: 'group_not_found', message: expect.stringContaining('at most 63 characters, the first a letter or digit') });
    }
  });

  it('wrong methods are 405 with Allow', () => {
    expect(fail('/protocol-a/v1/chat/completions', 'GET')).toMatchObject({ status: 405, code: 'method_not_allowed', allow: 'POST', route: { protocol: 'a', endpoint: 'chat' } });
    expect(fail('/g/team/protocol-b/v1/messages', 'GET')).toMatchObject({ status: 405, route: { protocol: 'b', group: 'team', endpoint: 'messages' } });
    expect(fail('/protocol-b/v1/models', 'POST')).toMatchObject({ status: 405, allow: 'GET', protocol: 'b' });
    expect(fail('/protocol-a/v1/models/openai%2Fgpt-5.4', 'DELETE')).toMatchObject({ status: 405, allow: 'GET', protocol: 'a' });
  });

  it('knows which paths are proxy paths and which shape their errors take', () => {
    expect(isProxyPath('/protocol-a/v1/models')).toBe(true);
    expect(isProxyPath('/g/x/protocol-b')).toBe(true);
    expect(isProxyPath('/admin/status')).toBe(false);
    expect(isProxyPath('/health')).toBe(false);
    expect(protocolOfPath('/protocol-b/v1/messages')).toBe('b');
    expect(protocolOfPath('/g/x/protocol-b/v1/messages')).toBe('b');
    expect(protocolOfPath('/g/x/protocol-a/v1/models')).toBe('a');
    expect(protocolOfPath('/admin/x')).toBe('a');
  });
});
