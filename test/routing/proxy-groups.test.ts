/** Group bases: ordered fallback, policy skips, names, answered-by headers and the log's attempts. */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { post, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    settings: { headersTimeoutMs: 400 },
    groups: {
      team: [
        { name: 'claude-sonnet-4-5', targets: ['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4'] },
        { name: 'fast', targets: ['ca/qwen3-coder', 'gemini/gemini-2.5-flash'] },
        { name: 'audio', targets: ['anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash'] },
        { name: 'audio-only-anthropic', targets: ['anthropic/claude-sonnet-4-5', 'cb/glm-4.6'] },
        { name: 'vendor/model.v1', targets: ['openrouter/openai/gpt-5'] },
        { name: 'half-connected', targets: ['nope/x', 'gemini/gemini-2.5-flash'] },
      ],
      gpt: [{ name: 'gpt-first', targets: ['openai/gpt-5.4', 'anthropic/claude-sonnet-4-5'] }],
    },
  });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const msg = (model: string, extra: Record<string, unknown> = {}) => ({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...extra });
const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('fallback', () => {
  it('500 on the first target → the second answers; headers and log name it', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(500, 'Internal server error'));
    const r = await post(`${h.groupB('team')}/v1/messages`, msg('claude-sonnet-4-5'));
    expect(r.status).toBe(200);
    expect(r.headers['x-svc-upstream-provider']).toBe('openai');
    expect(r.headers['x-svc-upstream-model']).toBe('gpt-5.4');
    expect(r.json.model).toBe('openai/gpt-5.4');
    const [log] = h.logs;
    expect(log).toMatchObject({ base: 'group:team', modelAsked: 'claude-sonnet-4-5', provider: 'openai', status: 200, fallback: true });
    expect(log!.attempts).toEqual([
      expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 500, errorCode: 'upstream_error' }),
      expect.objectContaining({ target: 'openai/gpt-5.4', status: 200 }),
    ]);
  });

  it('429, 401, 404 and 408 also move on', async () => {
    for (const status of [429, 401, 404, 408]) {
      h.reset();
      h.mocks.anthropic.next(h.mocks.anthropic.error(status, `status ${status}`));
      const r = await post(`${h.groupB('team')}/v1/messages`, msg('claude-sonnet-4-5'));
      expect(r.status, String(status)).toBe(200);
      expect(h.mocks.openai.generations()).toHaveLength(1);
    }
  });

  it("a redirect (a company gateway sending to its login page) moves on too, with the real SDK", async () => {
    h.mocks.ca.next({ kind: 'raw', status: 302, contentType: 'text/html', body: '<html><title>Sign in</title></html>', headers: { location: 'https://sso.example.com/login' } });
    const client = new OpenAI({ baseURL: h.groupA('team'), apiKey: 'k', maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.model).toBe('gemini/gemini-2.5-flash');
    const [log] = await h.waitForLogs(1);
    expect(log!.attempts.map((a) => [a.target, a.status, a.errorCode])).toEqual([
      ['ca/qwen3-coder', 302, 'upstream_redirect'],
      ['gemini/gemini-2.5-flash', 200, undefined],
    ]);
  });

  it("a 200 relayed as it is that is not the dialect's answer (a gateway's {}, no choices, a failed response) moves on too, with the real SDKs", async () => {
    const raw = (body: unknown) => ({ kind: 'raw' as const, status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    h.mocks.anthropic.next(raw({}));
    const claude = await new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 }).messages.create(msg('claude-sonnet-4-5') as never);
    expect(claude.model).toBe('openai/gpt-5.4');
    h.mocks.ca.next(raw({ id: 'c', object: 'chat.completion', choices: [] }));
    const openai = new OpenAI({ baseURL: h.groupA('team'), apiKey: 'k', maxRetries: 0 });
    expect((await openai.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }] })).model).toBe('gemini/gemini-2.5-flash');
    h.mocks.openai.next(raw({ id: 'resp_1', object: 'response', status: 'failed', error: { code: 'server_error', message: 'The server had an error' }, output: [] }));
    const gpt = new OpenAI({ baseURL: h.groupA('gpt'), apiKey: 'k', maxRetries: 0 });
    expect((await gpt.responses.create({ model: 'gpt-first', input: 'hi' })).model).toBe('anthropic/claude-sonnet-4-5');
    const logs = await h.waitForLogs(3);
    expect(logs.map((l) => l.attempts[0]!.errorCode)).toEqual(['upstream_invalid_response', 'upstream_invalid_response', 'upstream_invalid_response']);
    expect(logs[2]!.attempts[0]!.target).toBe('openai/gpt-5.4');
  });

  it('on a provider base such an answer is a 502 upstream_invalid_response saying why, not a success', async () => {
    h.mocks.openai.next({ kind: 'raw', status: 200, contentType: 'application/json', body: JSON.stringify({ id: 'resp_1', object: 'response', status: 'failed', error: { code: 'server_error', message: 'The server had an error' }, output: [] }) });
    const refused = await new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 }).responses.create({ model: 'openai/gpt-5.4', input: 'hi' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 502, code: 'upstream_invalid_response', message: expect.stringContaining('openai: unexpected answer: The server had an error (server_error)') });
  });

  it('connection refused → next target', async () => {
    const saved = h.config.endpoints.ca!.url;
    h.config.endpoints.ca!.url = 'http://127.0.0.1:9/v1';
    try {
      const r = await post(`${h.groupA('team')}/chat/completions`, chat('fast'));
      expect(r.status).toBe(200);
      expect(r.headers['x-svc-upstream-provider']).toBe('gemini');
      expect(h.logs[0]!.attempts[0]).toMatchObject({ status: 0, errorCode: 'upstream_unreachable' });
    } finally {
      h.config.endpoints.ca!.url = saved;
    }
  });

  it('no response headers in time → next target', async () => {
    h.mocks.ca.next({ kind: 'hang' });
    const r = await post(`${h.groupA('team')}/chat/completions`, chat('fast'));
    expect(r.status).toBe(200);
    expect(h.logs[0]!.attempts[0]).toMatchObject({ target: 'ca/qwen3-coder', status: 0, errorCode: 'upstream_timeout' });
  });

  it('no fallback on a 400 the request caused', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(400, 'messages.0.content: bad block'));
    const r = await post(`${h.groupB('team')}/v1/messages`, msg('claude-sonnet-4-5'));
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe('anthropic: messages.0.content: bad block');
    expect(h.mocks.openai.generations()).toHaveLength(0);
    expect(h.logs[0]!.fallback).toBe(false);
  });

  it('but a context-length 400 does fall back', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(400, 'prompt is too long: 210000 tokens > 200000 maximum'));
    const r = await post(`${h.groupB('team')}/v1/messages`, msg('claude-sonnet-4-5'));
    expect(r.status).toBe(200);
    expect(h.logs[0]!.attempts[0]!.errorCode).toBe('context_length_exceeded');
  });

  it('a stream falls back before its first byte', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(529, 'Overloaded'));
    const client = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 });
    const m = await client.messages.stream(msg('claude-sonnet-4-5') as never).finalMessage();
    expect(m.model).toBe('openai/gpt-5.4');
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ streamed: true, fallback: true, provider: 'openai' });
  });

  it('a stream whose first event is an error falls back too', async () => {
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'x', stream: { errorAfter: 0 } } });
    const client = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 });
    const m = await client.messages.stream(msg('claude-sonnet-4-5') as never).finalMessage();
    expect(m.model).toBe('openai/gpt-5.4');
  });

  it('a Chat stream that opens (past its role chunk) with an `event: error` pair falls back too', async () => {
    const role = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] };
    h.mocks.ca.next({ kind: 'sse', events: [{ data: role }, { event: 'error', data: { message: 'loading model', type: 'unavailable_error', code: 503 } }, { data: '[DONE]' }] });
    const r = await post(`${h.groupA('team')}/chat/completions`, chat('fast', { stream: true }));
    expect(r.status).toBe(200);
    expect(r.text).toContain('"model":"gemini-2.5-flash"');
    expect(r.text).not.toContain('loading model');
    const [log] = await h.waitForLogs(1);
    expect(log!.attempts[0]).toMatchObject({ target: 'ca/qwen3-coder', errorCode: 'upstream_overloaded' });
  });

  describe('an opening block with nothing in it yet is held as the envelope is (an error right after it still falls back)', () => {
    const messageStart = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 0 } } };
    // Anthropic's own order: the first block opens before its ping, and an overload may come next
    const anthropicOpening = (block: Record<string, unknown>) => ({
      kind: 'sse' as const,
      events: [
        { event: 'message_start', data: messageStart },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: block } },
        { event: 'ping', data: { type: 'ping' } },
        { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ],
    });

    it('Messages passthrough: an empty text or thinking block start, then overloaded_error → the next target answers', async () => {
      const client = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 });
      for (const block of [{ type: 'text', text: '' }, { type: 'thinking', thinking: '', signature: '' }]) {
        h.reset();
        h.mocks.anthropic.next(anthropicOpening(block));
        const m = await client.messages.stream(msg('claude-sonnet-4-5') as never).finalMessage();
        expect(m.model, block.type).toBe('openai/gpt-5.4');
        const [log] = await h.waitForLogs(1);
        expect(log!.attempts.map((a) => [a.target, a.errorCode])).toEqual([
          ['anthropic/claude-sonnet-4-5', 'upstream_overloaded'],
          ['openai/gpt-5.4', undefined],
        ]);
      }
    });

    it('converted for a Chat client: the same', async () => {
      h.mocks.anthropic.next(anthropicOpening({ type: 'text', text: '' }));
      const client = new OpenAI({ baseURL: h.groupA('team'), apiKey: 'k', maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], stream: true });
      const models = new Set<string>();
      for await (const chunk of stream) models.add(chunk.model);
      expect([...models]).toEqual(['openai/gpt-5.4']);
    });

    it('Responses passthrough: an empty reasoning item, message item and content part, then an error → the next target answers', async () => {
      const response = { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-5.4', output: [], usage: null };
      const item = { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
      h.mocks.openai.next({
        kind: 'sse',
        events: [
          { event: 'response.created', data: { type: 'response.created', sequence_number: 0, response } },
          { event: 'response.in_progress', data: { type: 'response.in_progress', sequence_number: 1, response } },
          // a reasoning model's item opens before it thinks
          { event: 'response.output_item.added', data: { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } } },
          { event: 'keepalive', data: { type: 'keepalive', sequence_number: 3 } },
          { event: 'response.output_item.added', data: { type: 'response.output_item.added', sequence_number: 4, output_index: 1, item } },
          { event: 'response.content_part.added', data: { type: 'response.content_part.added', sequence_number: 5, item_id: 'msg_1', output_index: 1, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } } },
          { event: 'error', data: { type: 'error', sequence_number: 6, code: 'server_error', message: 'The server had an error while processing your request.', param: null } },
          { event: 'response.failed', data: { type: 'response.failed', sequence_number: 7, response: { ...response, status: 'failed', error: { code: 'server_error', message: 'The server had an error' } } } },
        ],
      });
      const client = new OpenAI({ baseURL: h.groupA('gpt'), apiKey: 'k', maxRetries: 0 });
      const final = await client.responses.stream({ model: 'gpt-first', input: 'hi' }).finalResponse();
      expect(final.model).toBe('anthropic/claude-sonnet-4-5');
      const [log] = await h.waitForLogs(1);
      expect(log!.attempts.map((a) => a.target)).toEqual(['openai/gpt-5.4', 'anthropic/claude-sonnet-4-5']);
    });

    it("Chat passthrough: Azure's opening chunk with no choices (its prompt filter results), the role chunk, then an error → the next target answers", async () => {
      const filter = { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] };
      const role = { id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] };
      h.mocks.ca.next({ kind: 'sse', events: [{ data: filter }, { data: role }, { data: { error: { message: 'The server had an error', type: 'server_error', code: 500 } } }] });
      const client = new OpenAI({ baseURL: h.groupA('team'), apiKey: 'k', maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'hi' }], stream: true });
      const models = new Set<string>();
      for await (const chunk of stream) models.add(chunk.model);
      expect([...models]).toEqual(['gemini-2.5-flash']);
      const [log] = await h.waitForLogs(1);
      expect(log!.attempts.map((a) => a.target)).toEqual(['ca/qwen3-coder', 'gemini/gemini-2.5-flash']);
    });

    it('a block that says something (text in its start, a tool call) is the answer begun: no fallback', async () => {
      h.mocks.anthropic.next(anthropicOpening({ type: 'text', text: 'Hel' }));
      const client = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 });
      await expect(client.messages.stream(msg('claude-sonnet-4-5') as never).finalMessage()).rejects.toThrow(/Overloaded/);
      expect(h.mocks.openai.generations()).toHaveLength(0);
    });
  });

  it('every target failing → the last one\'s error in the client\'s shape', async () => {
    h.mocks.anthropic.next(h.mocks.anthropic.error(503, 'first down'));
    h.mocks.openai.next(h.mocks.openai.error(502, 'second down'));
    const r = await post(`${h.groupB('team')}/v1/messages`, msg('claude-sonnet-4-5'));
    expect(r.status).toBe(502);
    expect(r.json).toMatchObject({ type: 'error', error: { message: 'openai: second down (tried before it: anthropic/claude-sonnet-4-5 503 upstream_overloaded)' } });
    expect(r.headers['x-svc-upstream-provider']).toBe('openai');
    expect(h.logs[0]!.attempts).toHaveLength(2);
  });
});

describe('policy per target', () => {
  const audio = (model: string) => ({ model, messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }] });

  it('a target that cannot take the request is skipped with its reason', async () => {
    const r = await post(`${h.groupA('team')}/chat/completions`, audio('audio'));
    expect(r.status).toBe(200);
    expect(r.headers['x-svc-upstream-provider']).toBe('gemini');
    expect(h.mocks.anthropic.generations()).toHaveLength(0);
    expect(h.logs[0]!.attempts[0]).toMatchObject({ target: 'anthropic/claude-sonnet-4-5', status: 0, errorCode: 'unsupported_modality' });
    expect(h.logs[0]!.attempts[0]!.skipped).toMatch(/audio/);
  });

  it('previous_response_id svc-proxy did not keep (OpenAI’s), first target Claude: the conversation is read from OpenAI and Claude answers', async () => {
    const first = await post(`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'hi' });
    expect(first.status).toBe(200);
    const r = await post(`${h.groupA('team')}/responses`, { model: 'claude-sonnet-4-5', input: 'again', previous_response_id: first.json.id });
    expect(r.status).toBe(200);
    expect(r.headers['x-svc-upstream-provider']).toBe('anthropic');
    expect(r.json.previous_response_id).toBe(first.json.id);
    const sent = h.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string }> };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(h.mocks.openai.generations()).toHaveLength(1);
    expect(h.logs.at(-1)!.attempts).toEqual([expect.objectContaining({ target: 'anthropic/claude-sonnet-4-5', status: 200 })]);
  });

  it('previous_response_id of OpenAI’s, OpenAI first and failing: the conversation is read from OpenAI for the Claude fallback', async () => {
    const first = await post(`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'hi' });
    h.mocks.openai.next(h.mocks.openai.error(503, 'overloaded'));
    const r = await post(`${h.groupA('gpt')}/responses`, { model: 'gpt-first', input: 'again', previous_response_id: first.json.id });
    expect(r.status).toBe(200);
    expect(r.headers['x-svc-upstream-provider']).toBe('anthropic');
    expect(r.json.previous_response_id).toBe(first.json.id);
    // OpenAI was asked with the id alone; Claude got the conversation it names
    expect(h.mocks.openai.lastGeneration().body).toMatchObject({ previous_response_id: first.json.id, input: 'again' });
    const sent = h.mocks.anthropic.lastGeneration().body as { messages: Array<{ role: string }> };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status])).toEqual([['openai/gpt-5.4', 503], ['anthropic/claude-sonnet-4-5', 200]]);
    // and the next turn goes on from Claude's kept answer on any target
    const next = await post(`${h.groupA('gpt')}/responses`, { model: 'gpt-first', input: 'more', previous_response_id: r.json.id });
    expect(next.status).toBe(200);
    const resent = h.mocks.openai.lastGeneration().body as { input: unknown[]; previous_response_id?: string };
    expect(resent.previous_response_id).toBeUndefined();
    expect(JSON.stringify(resent.input)).toMatch(/"hi".*"again".*"more"/);
  });

  it('an answer kept on a group base is read again on it and on the provider base (the key is the scope); an unknown group is 404', async () => {
    const made = await post(`${h.groupA('team')}/responses`, { model: 'claude-sonnet-4-5', input: 'hi' });
    expect(made.status).toBe(200);
    const auth = { authorization: 'Bearer sk-svc-proxy-test' };
    for (const base of [h.groupA('team'), h.a]) {
      const r = await fetch(`${base}/responses/${made.json.id}`, { headers: auth });
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual(made.json);
    }
    const ghost = await fetch(`${h.groupA('ghost')}/responses/${made.json.id}`, { headers: auth });
    expect(ghost.status).toBe(404);
    expect(((await ghost.json()) as { error: { code: string } }).error.code).toBe('group_not_found');
  });

  it('when no target can, the client gets the first one\'s 400', async () => {
    const r = await post(`${h.groupA('team')}/chat/completions`, audio('audio-only-anthropic'));
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('unsupported_modality');
    expect(r.json.error.message).toMatch(/^anthropic /);
    expect(h.logs[0]!.attempts).toHaveLength(2);
  });

  it('an unknown provider in a group is skipped, the next target answers', async () => {
    const r = await post(`${h.groupA('team')}/chat/completions`, chat('half-connected'));
    expect(r.status).toBe(200);
    expect(h.logs[0]!.attempts[0]).toMatchObject({ target: 'nope/x', errorCode: 'invalid_model' });
  });
});

describe('names and bases', () => {
  it('names may contain / and .', async () => {
    const r = await post(`${h.groupA('team')}/chat/completions`, chat('vendor/model.v1'));
    expect(r.status).toBe(200);
    expect(h.mocks.openrouter.lastGeneration().body.model).toBe('openai/gpt-5');
  });

  it('an unknown name → 404 model_not_found listing the names; unknown group → 404 group_not_found', async () => {
    const r = await post(`${h.groupA('team')}/chat/completions`, chat('gpt-9'));
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe('model_not_found');
    expect(r.json.error.message).toContain('claude-sonnet-4-5, fast');
    const b = await post(`${h.groupB('ghost')}/v1/messages`, msg('x'));
    expect(b.status).toBe(404);
    expect(b.json).toMatchObject({ type: 'error', error: { type: 'not_found_error', code: 'group_not_found' } });
  });

  it('a provider id is not a group name', async () => {
    const r = await post(`${h.groupA('team')}/chat/completions`, chat('openai/gpt-5.4'));
    expect(r.status).toBe(404);
  });

  it('GET models on a group base lists exactly its names, in each shape', async () => {
    const a = new OpenAI({ baseURL: h.groupA('team'), apiKey: 'k', maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of a.models.list()) ids.push(m.id);
    expect(ids).toEqual(['claude-sonnet-4-5', 'fast', 'audio', 'audio-only-anthropic', 'vendor/model.v1', 'half-connected']);
    const b = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 });
    const page = await b.models.list();
    expect(page.data.map((m) => m.id)).toEqual(ids);
    expect(page.data[0]).toMatchObject({ type: 'model', display_name: 'claude-sonnet-4-5', created_at: '2026-01-02T03:04:05Z' });
    const raw = await new Promise<string>((resolve) => {
      request(`${h.groupB('team')}/v1/models`, (res) => {
        let t = '';
        res.on('data', (c: Buffer) => (t += c.toString()));
        res.on('end', () => resolve(t));
      }).end();
    });
    expect(JSON.parse(raw)).toMatchObject({ has_more: false, first_id: 'claude-sonnet-4-5', last_id: 'half-connected' });
  });

  it('count_tokens on a group base resolves the name', async () => {
    const b = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 });
    const n = await b.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hello' }] });
    expect(n.input_tokens).toBeGreaterThan(0);
  });

  it('count_tokens falls back as generation does: on a 5xx, not on a 400 the request caused', async () => {
    const count = (): Promise<{ status: number; json: () => unknown }> =>
      post(`${h.groupB('team')}/v1/messages/count_tokens`, { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hello' }] });
    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(500, 'boom'));
    expect((await count()).status).toBe(200);
    // (a refused count is classified as a generation's failure: the upstream's 500 stays one)
    expect(h.logs.at(-1)!.attempts.map((a) => [a.target, a.status])).toEqual([
      ['anthropic/claude-sonnet-4-5', 500],
      ['openai/gpt-5.4', 200],
    ]);
    h.mocks.anthropic.on('/v1/messages/count_tokens', h.mocks.anthropic.error(400, 'messages: bad'));
    const refused = await count();
    expect(refused.status).toBe(400);
    expect(h.logs.at(-1)!.attempts.map((a) => a.target)).toEqual(['anthropic/claude-sonnet-4-5']);
  });
});
