/** Where a forwarded Conversations call goes at OpenAI (conversations-endpoint.ts). */
import { describe, expect, it } from 'vitest';
import { conversationsPath } from '../../src/routing/conversations-endpoint.js';
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
});
