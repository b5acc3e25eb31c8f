import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/protocols/errors.js';
import type { HubRequest } from '../../src/protocols/hub.js';
import { anthropicAdapter } from '../../src/providers/anthropic.js';
import { countTokens } from '../../src/providers/count-tokens.js';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';
import { geminiAdapter } from '../../src/providers/gemini.js';
import { localAdapter } from '../../src/providers/local.js';
import { estimateInputTokens } from '../../src/providers/local-token-estimate.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { openrouterAdapter } from '../../src/providers/openrouter.js';
import type { ProviderAdapter, ResolvedProvider } from '../../src/providers/types.js';
import { closeUpstreamPools } from '../../src/providers/upstream-client.js';
import { closedPortUrl } from '../fixtures/ports.js';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

let server: Server;
let root: string;
let seen: Seen[] = [];
let answer: { status: number; body: unknown } | undefined;
/** The settings' defaults; a test that times out gives its own. */
const COUNT_TIMEOUTS = { connectTimeoutMs: 10_000, headersTimeoutMs: 600_000, idleTimeoutMs: 300_000 };
/** The provider sends its headers after this long (0: at once). */
let headersAfterMs = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({ path, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> });
      const reply =
        answer ??
        (path.endsWith('/messages/count_tokens')
          ? { status: 200, body: { input_tokens: 111 } }
          : path.endsWith('/responses/input_tokens')
            ? { status: 200, body: { object: 'response.input_tokens', input_tokens: 222 } }
            : path.endsWith(':countTokens')
              ? { status: 200, body: { totalTokens: 333 } }
              : { status: 404, body: { error: { message: 'no route' } } });
      const send = () => {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      };
      if (headersAfterMs > 0) setTimeout(send, headersAfterMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  root = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
});

afterAll(async () => {
  await closeUpstreamPools(100);
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  seen = [];
  answer = undefined;
});

function target(adapter: ProviderAdapter, baseUrl: string, credential?: string): ResolvedProvider {
  return { slug: adapter.kind, adapter, baseUrl: adapter.normaliseBaseUrl(baseUrl), ...(credential ? { credential } : {}) };
}

function hub(extra: Partial<HubRequest> = {}): HubRequest {
  return {
    model: 'ignored',
    system: [{ text: 'You are terse.' }],
    items: [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] },
      { type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', thoughtSignature: 'sig-1' },
      { type: 'function_call_output', callId: 'call_1', output: 'Sunny, 21C' },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Sunny and 21C.' }] },
    ],
    tools: [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', additionalProperties: false, properties: { city: { type: 'string', const: 'Paris' } }, required: ['city'] },
      },
    ],
    stream: false,
    ...extra,
  };
}

describe('countTokens via provider endpoints', () => {
  it('anthropic from a Messages client: the raw body minus create-only fields, client version/betas', async () => {
    const raw = { model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, stream: true, temperature: 0.5, messages: [{ role: 'user', content: 'hi' }], system: 'sys', thinking: { type: 'enabled', budget_tokens: 2048 } };
    const n = await countTokens(target(anthropicAdapter, root, 'sk-ant-real'), 'claude-sonnet-4-5', { hub: hub(), raw, from: 'messages', headers: { 'anthropic-version': '2026-10-21', 'anthropic-beta': 'b1', authorization: 'Bearer client' }, timeouts: COUNT_TIMEOUTS });
    expect(n).toBe(111);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe('/v1/messages/count_tokens');
    expect(seen[0]!.body).toEqual({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], system: 'sys', thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(seen[0]!.headers['x-api-key']).toBe('sk-ant-real');
    expect(seen[0]!.headers['anthropic-version']).toBe('2026-10-21');
    expect(seen[0]!.headers['anthropic-beta']).toBe('b1');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(raw.max_tokens).toBe(100); // the caller's object is not modified
  });

  it('anthropic count bodies get the same effort cap as generation; the client body is not modified', async () => {
    const raw = { model: 'x', messages: [{ role: 'user', content: 'hi' }], thinking: { type: 'adaptive' }, output_config: { effort: 'xhigh' }, tool_choice: { type: 'any' } };
    const copy = structuredClone(raw);
    await countTokens(target(anthropicAdapter, root, 'k'), 'claude-sonnet-4-6', { hub: hub({ reasoning: { effort: 'xhigh' } }), raw, from: 'messages', timeouts: COUNT_TIMEOUTS });
    expect(seen[0]!.body.output_config).toEqual({ effort: 'high' });
    expect(seen[0]!.body.tool_choice).toEqual({ type: 'auto' });
    expect(raw).toEqual(copy);
  });

  it('custom b from a converted request: the Messages encoding of the hub without max_tokens', async () => {
    const n = await countTokens(target(customMessagesAdapter, `${root}/v1`), 'glm-4.6', { hub: hub(), raw: {}, from: 'chat', timeouts: COUNT_TIMEOUTS });
    expect(n).toBe(111);
    const body = seen[0]!.body;
    expect(body.model).toBe('glm-4.6');
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('stream');
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(Array.isArray(body.messages)).toBe(true);
    expect(Array.isArray(body.tools)).toBe(true);
    expect(seen[0]!.headers['anthropic-version']).toBe('2023-06-01');
    expect(seen[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('openai: /responses/input_tokens with only the fields it takes', async () => {
    const n = await countTokens(target(openaiAdapter, `${root}/v1`, 'sk-oa'), 'gpt-5.4', { hub: hub({ reasoning: { effort: 'max' }, maxOutputTokens: 50, temperature: 0.2 }), raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS });
    expect(n).toBe(222);
    expect(seen[0]!.path).toBe('/v1/responses/input_tokens');
    const body = seen[0]!.body;
    expect(Object.keys(body).sort()).toEqual(['input', 'instructions', 'model', 'reasoning', 'tools'].sort());
    expect(body.model).toBe('gpt-5.4');
    expect((body.reasoning as Record<string, unknown>).effort).toBe('xhigh');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-oa');
  });

  it('gemini: native countTokens with contents, system instruction and sanitised tools', async () => {
    const n = await countTokens(target(geminiAdapter, `${root}/v1beta/openai`, 'g-key'), 'models/gemini-2.5-flash', { hub: hub(), raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS });
    expect(n).toBe(333);
    expect(seen[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:countTokens');
    expect(seen[0]!.headers['x-goog-api-key']).toBe('g-key');
    expect(seen[0]!.headers.authorization).toBeUndefined();
    const req = seen[0]!.body.generateContentRequest as Record<string, unknown>;
    expect(req.model).toBe('models/gemini-2.5-flash');
    expect(req.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] });
    expect(req.contents).toEqual([
      { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-1' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'Sunny, 21C' } } }] },
      { role: 'model', parts: [{ text: 'Sunny and 21C.' }] },
    ]);
    expect(req.tools).toEqual([
      { functionDeclarations: [{ name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string', enum: ['Paris'] } }, required: ['city'] } }] },
    ]);
  });

  it('upstream errors become ProtocolErrors with the provider message', async () => {
    answer = { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'messages: field required' } } };
    const err = await countTokens(target(anthropicAdapter, root, 'k'), 'claude-opus-4-7', { hub: hub(), raw: { messages: [] }, from: 'messages', timeouts: COUNT_TIMEOUTS }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ status: 400, code: 'upstream_error' });
    expect((err as Error).message).toContain('messages: field required');

    answer = { status: 500, body: [{ error: { code: 500, message: 'Internal', status: 'INTERNAL' } }] };
    const err5 = await countTokens(target(geminiAdapter, `${root}/v1beta/openai`, 'k'), 'gemini-2.5-pro', { hub: hub(), raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS }).catch((e: unknown) => e);
    expect(err5).toMatchObject({ status: 502, code: 'upstream_error' });
    expect((err5 as Error).message).toContain('Internal');

    answer = { status: 200, body: { nope: 1 } };
    await expect(countTokens(target(openaiAdapter, `${root}/v1`, 'k'), 'gpt-5.4', { hub: hub(), raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS })).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });

  it('waits for the provider as long as the timeouts it is given say (the settings\', as for a generation)', async () => {
    // undici checks its timeouts about once a second: the answer comes well after that
    headersAfterMs = 2_500;
    try {
      const slow = { ...COUNT_TIMEOUTS, headersTimeoutMs: 200 };
      const err = await countTokens(target(anthropicAdapter, root, 'k'), 'claude-opus-4-7', { hub: hub(), raw: { messages: [] }, from: 'messages', timeouts: slow }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProtocolError);
      expect(err).toMatchObject({ status: 504, code: 'upstream_timeout' });
    } finally {
      headersAfterMs = 0;
    }
  });

  it('an unreachable provider → 502 upstream_unreachable, never leaking the credential', async () => {
    const url = await closedPortUrl();
    const err = await countTokens(target(anthropicAdapter, url, 'sk-ant-secret'), 'claude-opus-4-7', { hub: hub(), raw: { messages: [] }, from: 'messages', timeouts: COUNT_TIMEOUTS }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ status: 502, code: 'upstream_unreachable' });
    expect((err as Error).message).not.toContain('sk-ant-secret');
  });
});

describe('countTokens local estimate', () => {
  it('chat-speaking targets other than gemini use the tokenizer without any request', async () => {
    for (const adapter of [openrouterAdapter, customChatAdapter, localAdapter]) {
      const n = await countTokens(target(adapter, root), 'any', { hub: hub(), raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS });
      expect(n).toBe(await estimateInputTokens(hub()));
    }
    expect(seen).toHaveLength(0);
  });

  it('counts system, tools and every message part', async () => {
    const empty: HubRequest = { model: 'x', system: [], items: [], tools: [], stream: false };
    const baseCount = await estimateInputTokens(empty);
    expect(baseCount).toBe(3);
    const withSystem = await estimateInputTokens({ ...empty, system: [{ text: 'You are a helpful assistant with a long system prompt.' }] });
    expect(withSystem).toBeGreaterThan(baseCount + 5);
    const full = await estimateInputTokens(hub());
    const noTools = await estimateInputTokens(hub({ tools: [] }));
    expect(full - noTools).toBeGreaterThan(20); // the tool's JSON definition
    const noCall = await estimateInputTokens(hub({ items: hub().items.filter((i) => i.type !== 'function_call') }));
    expect(full).toBeGreaterThan(noCall);
    const withImage = await estimateInputTokens(hub({ items: [...hub().items, { type: 'message', role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }] }));
    expect(withImage - full).toBeGreaterThanOrEqual(1000);
  });

  it('counts real tokens (o200k_base), special-token text included', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. <|endoftext|>';
    const n = await estimateInputTokens({ model: 'x', system: [], items: [{ type: 'message', role: 'user', content: [{ type: 'text', text }] }], tools: [], stream: false });
    // 3 reply priming + 3 framing + the text's tokens (a dozen or so, not characters/4 guesses of 14).
    expect(n).toBeGreaterThan(6 + 10);
    expect(n).toBeLessThan(6 + 25);
  });

  it('pdf documents are estimated per page', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Pages /Count 2 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type /Page >>\n').toString('base64');
    const n = await estimateInputTokens({ model: 'x', system: [], items: [{ type: 'message', role: 'user', content: [{ type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: pdf } }] }], tools: [], stream: false });
    expect(n).toBe(3 + 3 + 2 * 1500);
  });
});
