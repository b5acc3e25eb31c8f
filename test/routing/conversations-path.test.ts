/** Where a forwarded Conversations call goes at OpenAI (conversations-endpoint.ts). */
import { describe, expect, it } from 'vitest';
import { conversationAction, conversationsPath } from '../../src/routing/conversations-endpoint.js';
import { openaiUrl } from '../../src/routing/openai-call.js';

describe('conversations path', () => {
  it('the path from /conversations on, whatever base and group it came by; the query apart', () => {
    expect(conversationsPath('/protocol-a/v1/conversations')).toEqual({ path: '/conversations', query: '' });
    expect(conversationsPath('/g/team/protocol-a/v1/v1/conversations/conv_1/items/?order=asc&limit=2')).toEqual({ path: '/conversations/conv_1/items', query: '?order=asc&limit=2' });
  });

  it('joined to the provider base, a query on the base kept', () => {
    expect(openaiUrl('https://api.openai.com/v1/', '/conversations/c/items', '?limit=2')).toBe('https://api.openai.com/v1/conversations/c/items?limit=2');
    expect(openaiUrl('https://gw.corp/openai/v1?tenant=a', '/responses/r/input_items', '?order=asc')).toBe('https://gw.corp/openai/v1/responses/r/input_items?tenant=a&order=asc');
    expect(openaiUrl('https://gw.corp/v1?tenant=a', '/conversations', '')).toBe('https://gw.corp/v1/conversations?tenant=a');
  });

  it('what a call does, by method and path, as the SDK names it; none for what the API does not have', () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['POST', '/conversations', 'create'],
      ['GET', '/conversations', undefined],
      ['GET', '/conversations/conv_1', 'retrieve'],
      ['POST', '/conversations/conv_1', 'update'],
      ['DELETE', '/conversations/conv_1', 'delete'],
      ['PUT', '/conversations/conv_1', undefined],
      ['GET', '/conversations/conv_1/items', 'items.list'],
      ['POST', '/conversations/conv_1/items', 'items.create'],
      ['GET', '/conversations/conv_1/items/msg_1', 'items.retrieve'],
      ['DELETE', '/conversations/conv_1/items/msg_1', 'items.delete'],
      ['POST', '/conversations/conv_1/items/msg_1', undefined],
      ['GET', '/conversations/conv_1/other', undefined],
      ['GET', '/conversations/conv_1/items/msg_1/more', undefined],
    ];
    for (const [method, path, action] of cases) expect(conversationAction(method, path), `${method} ${path}`).toBe(action);
  });
});
