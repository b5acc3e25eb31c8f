/**
 * Local servers (llama.cpp, vLLM, LM Studio, Ollama) on the converted path: how their stream
 * errors, refusals and reasoning reach Messages and Responses clients. A keyless GenericChatMock
 * stands in for the server, added as a local server of the harness.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, post, type Harness } from './harness.js';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { closedPortUrl } from '../fixtures/ports.js';
import { localAdapter } from '../../src/providers/local.js';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';

let h: Harness;
let local: GenericChatMock;
beforeAll(async () => {
  h = await startHarness();
  local = await new GenericChatMock({ name: 'llama', reasoningField: 'reasoning_content' }).listen();
  h.config.locals.llama = { url: local.baseUrl, created: '2026-01-02T03:04:05.000Z', detected: false };
});
afterAll(async () => {
  await h.close();
  await local.close();
});
beforeEach(() => {
  h.reset();
  local.reset();
});

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** The data of each SSE event, parsed. */
function events(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split('\n\n')
    .map((e) => e.split('\n').find((l) => l.startsWith('data: ')))
    .filter((d): d is string => d !== undefined)
    .map((d) => JSON.parse(d.slice(6)) as Record<string, unknown>);
}

const messagesStream = { model: 'llama/qwen3-coder', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'x' }] };
const responsesStream = { model: 'llama/qwen3-coder', stream: true, input: 'x' };

describe('an error event mid-stream is classified as the same words in an HTTP error body would be', () => {
  // vLLM and OpenAI write a mid-stream error as `data: {"error":…}`
  const overflow = `data: ${JSON.stringify({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } })}\n\n`;

  it('Messages client: a context-length error becomes context_length_exceeded, worded as Anthropic words it', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: chunk({ role: 'assistant', content: 'partial' }) + overflow });
    const r = await post(`${h.b}/v1/messages`, messagesStream);
    expect(r.status).toBe(200);
    const last = events(r.text).at(-1) as { type: string; error: { type: string; code: string; message: string } };
    expect(last.type).toBe('error');
    expect(last.error.code).toBe('context_length_exceeded');
    expect(last.error.type).toBe('invalid_request_error');
    expect(last.error.message).toMatch(/^prompt is too long: llama: the request exceeds the available context size/);
    const [log] = await h.waitForLogs(1);
    expect(log!.errorCode).toBe('context_length_exceeded');
  });

  it('Responses client: the error event and response.failed carry context_length_exceeded', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: chunk({ role: 'assistant', content: 'partial' }) + overflow });
    const r = await post(`${h.a}/responses`, responsesStream);
    expect(r.status).toBe(200);
    const all = events(r.text);
    const error = all.find((e) => e.type === 'error') as { code: string; message: string };
    expect(error.code).toBe('context_length_exceeded');
    expect(error.message).toMatch(/^llama: the request exceeds the available context size/);
    const failed = all.find((e) => e.type === 'response.failed') as { response: { error: { code: string } } } | undefined;
    if (failed) expect(failed.response.error.code).toBe('context_length_exceeded');
  });

  it('passthrough (Chat client): the error, then [DONE] written apart (an event per chunk, as Python servers write): ours in place of both', async () => {
    const delta = JSON.parse(chunk({ role: 'assistant', content: 'partial' }).slice(6)) as unknown;
    local.next({ kind: 'sse', events: [{ data: delta }, { data: JSON.parse(overflow.slice(6)) as unknown }, { data: '[DONE]' }] });
    const r = await post(`${h.a}/chat/completions`, { model: 'llama/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(200);
    expect(r.text).toContain('partial');
    expect(r.text).not.toContain('exceed_context_size_error');
    expect(r.text).not.toContain('[DONE]');
    expect((events(r.text).at(-1) as { error: { code: string } }).error.code).toBe('context_length_exceeded');
  });

  it('other errors keep the code of their status', async () => {
    const busy = `data: ${JSON.stringify({ error: { code: 503, message: 'loading model', type: 'unavailable_error' } })}\n\n`;
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: chunk({ role: 'assistant', content: 'partial' }) + busy });
    const r = await post(`${h.b}/v1/messages`, messagesStream);
    const last = events(r.text).at(-1) as { error: { code: string } };
    expect(last.error.code).toBe('upstream_overloaded');
  });
});

describe("llama-server's stream errors come as an `error:` field, not `data:`", () => {
  const overflow = `error: ${JSON.stringify({ code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' })}\n\ndata: [DONE]\n\n`;
  const body = chunk({ role: 'assistant', content: 'partial' }) + overflow;

  it('converted (Messages client): the error event, context_length_exceeded, not an answer that looks complete', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await post(`${h.b}/v1/messages`, messagesStream);
    expect(r.status).toBe(200);
    const last = events(r.text).at(-1) as { type: string; error: { code: string; message: string } };
    expect(last.type).toBe('error');
    expect(last.error.code).toBe('context_length_exceeded');
    expect(r.text).not.toContain('message_stop');
  });

  it('passthrough (Chat client): the text before it, then our final error event in place of the upstream line', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await post(`${h.a}/chat/completions`, { model: 'llama/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('error: {');
    expect(r.text).not.toContain('[DONE]');
    const last = events(r.text).at(-1) as { error: { code: string; message: string } };
    expect(last.error.code).toBe('context_length_exceeded');
    expect(last.error.message).toMatch(/^llama: the request exceeds/);
  });

  it('as the first event, before any byte: an HTTP error (a group may fall back), converted and passthrough', async () => {
    for (const [url, body] of [
      [`${h.b}/v1/messages`, messagesStream],
      [`${h.a}/chat/completions`, { model: 'llama/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'x' }] }],
    ] as const) {
      local.next({ kind: 'raw', contentType: 'text/event-stream', body: overflow });
      const r = await post(url, body);
      expect(r.status, url).toBe(400);
      expect(r.json.error.code, url).toBe('context_length_exceeded');
    }
  });

  it('a whole answer asked for and streamed anyway: the error, 400', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body });
    const r = await post(`${h.b}/v1/messages`, { ...messagesStream, stream: false });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('context_length_exceeded');
  });
});

describe('an error sent as an SSE `event: error` + `data:` pair (vLLM/SGLang variants, gateways)', () => {
  const chat = { model: 'llama/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'x' }] };
  const overflow = { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' };
  const opening = [{ data: JSON.parse(chunk({ role: 'assistant', content: '' }).slice(6)) as unknown }, { data: JSON.parse(chunk({ content: 'partial' }).slice(6)) as unknown }];
  // the data either wraps the error (`{"error":{…}}`) or is the error object itself
  const shapes = { wrapped: { error: overflow }, bare: overflow };

  for (const [shape, data] of Object.entries(shapes)) {
    it(`passthrough (Chat client), ${shape}: at the end, the text before it, then our final error event in place of the pair`, async () => {
      // [DONE] after it comes as its own chunk (the mock writes each event apart), often in the same read
      for (const done of [false, true]) {
        local.next({ kind: 'sse', events: [...opening, { event: 'error', data }, ...(done ? [{ data: '[DONE]' }] : [])] });
        const r = await post(`${h.a}/chat/completions`, chat);
        expect(r.status).toBe(200);
        expect(r.text).toContain('partial');
        expect(r.text).not.toContain('event: error');
        expect(r.text).not.toContain('[DONE]');
        const last = events(r.text).at(-1) as { error: { code: string; message: string } };
        expect(last.error.code).toBe('context_length_exceeded');
        expect(last.error.message).toMatch(/^llama: the request exceeds/);
        const [log] = await h.waitForLogs(1);
        expect(log!.errorCode).toBe('context_length_exceeded');
        h.reset();
      }
    });

    it(`passthrough (Chat client), ${shape}: as the first event, before any byte, an HTTP error (a group may fall back)`, async () => {
      local.next({ kind: 'sse', events: [{ comment: 'keep-alive' }, { event: 'error', data }] });
      const r = await post(`${h.a}/chat/completions`, chat);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('context_length_exceeded');
    });
  }
});

describe('an error event at the end of a passthrough Chat stream, written in pieces across reads', () => {
  const chat = { model: 'llama/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'x' }] };
  const error = JSON.stringify({ error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' } });
  const opening = (eol: string) => [chunk({ role: 'assistant', content: '' }), chunk({ content: 'partial' })].map((c) => c.replaceAll('\n', eol)).join('');
  const shapes: Record<string, string[]> = {
    'cut inside its JSON': [`${opening('\n')}data: ${error.slice(0, 20)}`, `${error.slice(20)}\n\ndata: [DONE]\n\n`],
    'CRLF line ends, cut between its lines': [`${opening('\r\n')}id: 7\r\n`, `data: ${error}\r\nretry: 1500\r\n\r\n`, 'data: [DONE]\r\n\r\n'],
  };
  for (const [shape, writes] of Object.entries(shapes)) {
    it(`${shape}: the text before it, then our final error event in place of it`, async () => {
      // a pause between the writes puts each in a read (and a relay tick) of its own
      local.next({ kind: 'sse', events: writes.map((raw, i) => ({ raw, delayMs: i === 0 ? 0 : 40 })) });
      const r = await post(`${h.a}/chat/completions`, chat);
      expect(r.status).toBe(200);
      expect(r.text).toContain('partial');
      expect(r.text).not.toContain('exceed_context_size_error');
      expect(r.text).not.toContain('[DONE]');
      const last = events(r.text.replaceAll('\r\n', '\n')).at(-1) as { error: { code: string; message: string } };
      expect(last.error.code).toBe('context_length_exceeded');
      expect(last.error.message).toMatch(/^llama: the request exceeds/);
    });
  }
});

describe('Ollama refuses an effort for a model that does not think', () => {
  it('the request is sent once more without reasoning_effort, and later ones go without it from the start', async () => {
    local.next(local.error(400, '"llama3.1:8b" does not support thinking'));
    const ask = { model: 'llama/llama3.1:8b', reasoning_effort: 'high', messages: [{ role: 'user', content: 'hi' }] };
    const r = await post(`${h.a}/chat/completions`, ask);
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.content).toBe('Echo: hi');
    const sent = local.requests.filter((q) => q.path === '/v1/chat/completions').map((q) => (q.body as Record<string, unknown>).reasoning_effort);
    expect(sent).toEqual(['high', undefined]);
    local.requests.length = 0;
    const again = await post(`${h.a}/chat/completions`, ask);
    expect(again.status).toBe(200);
    expect(local.requests.map((q) => (q.body as Record<string, unknown>).reasoning_effort)).toEqual([undefined]);
  });

  it('converted too: Claude Code\'s thinking becomes an effort, refused, and the answer comes without it', async () => {
    local.next(local.error(400, '"gemma3:4b" does not support thinking'));
    const r = await post(`${h.b}/v1/messages`, { model: 'llama/gemma3:4b', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expect(r.json.content).toContainEqual({ type: 'text', text: 'Echo: hi' });
    const sent = local.requests.map((q) => (q.body as Record<string, unknown>).reasoning_effort);
    expect(sent[0]).toBeTypeOf('string');
    expect(sent.slice(1)).toEqual([undefined]);
  });
});

describe("Ollama refuses a think value the model does not take (the mock refuses as Ollama's OpenAI layer does)", () => {
  const chatBodies = () => local.requests.filter((q) => q.path === '/v1/chat/completions').map((q) => q.body as Record<string, unknown>);

  it('a level refused (a model that thinks on or off): once more without the effort, and later ones go without it', async () => {
    const ask = { model: 'llama/qwen3:8b', reasoning_effort: 'medium', messages: [{ role: 'user', content: 'hi' }] };
    const r = await post(`${h.a}/chat/completions`, ask);
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.content).toBe('Echo: hi');
    expect(chatBodies().map((b) => b.reasoning_effort)).toEqual(['medium', undefined]);
    local.requests.length = 0;
    const again = await post(`${h.a}/chat/completions`, ask);
    expect(again.status).toBe(200);
    expect(chatBodies().map((b) => b.reasoning_effort)).toEqual([undefined]);
  });

  it('a level refused, converted (Messages client with thinking): the answer comes, after one retry', async () => {
    const r = await post(`${h.b}/v1/messages`, { model: 'llama/qwen3:4b', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expect(r.json.content).toContainEqual({ type: 'text', text: 'Echo: hi' });
    const sent = chatBodies().map((b) => b.reasoning_effort);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBeTypeOf('string');
    expect(sent[1]).toBeUndefined();
  });

  /** Asked twice with `effort`: the first time refused and retried at `retried`, the second sent at `retried` straight away. */
  async function retriedOnceThenRemembered(model: string, effort: string, retried: string): Promise<void> {
    const ask = { model, reasoning_effort: effort, messages: [{ role: 'user', content: 'hi' }] };
    const r = await post(`${h.a}/chat/completions`, ask);
    expect(r.status).toBe(200);
    expect(chatBodies().map((body) => body.reasoning_effort)).toEqual([effort, retried]);
    local.requests.length = 0;
    const again = await post(`${h.a}/chat/completions`, ask);
    expect(again.status).toBe(200);
    expect(chatBodies().map((body) => body.reasoning_effort)).toEqual([retried]);
  }

  it('a boolean refused (gpt-oss takes only levels): once more at the nearest level, remembered', async () => {
    await retriedOnceThenRemembered('llama/gpt-oss:20b', 'none', 'low');
  });

  it('a level Ollama does not know at all (max): once more at the nearest it lists, remembered', async () => {
    await retriedOnceThenRemembered('llama/magistral:24b', 'max', 'high');
  });

  it('a level gpt-oss takes goes through untouched', async () => {
    const r = await post(`${h.a}/chat/completions`, { model: 'llama/gpt-oss:120b', reasoning_effort: 'high', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expect(chatBodies().map((b) => b.reasoning_effort)).toEqual(['high']);
  });
});

describe('reasoning_content of llama.cpp, vLLM and LM Studio is carried as reasoning', () => {
  // llama-server's shape: reasoning_content deltas with content null, then content
  const streamed =
    chunk({ role: 'assistant', content: null, reasoning_content: 'Let me ' }) +
    chunk({ content: null, reasoning_content: 'think.' }) +
    chunk({ content: 'The answer.', reasoning_content: null }) +
    chunk({}, 'stop') +
    'data: [DONE]\n\n';
  const whole = {
    id: 'c1',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'The answer.', reasoning_content: 'Let me think.' } }],
    usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 },
  };
  const thinking = { thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 2000 };

  it('Messages client, streamed: a thinking block before the text', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: streamed });
    const r = await post(`${h.b}/v1/messages`, { ...messagesStream, ...thinking });
    const all = events(r.text);
    const starts = all.filter((e) => e.type === 'content_block_start').map((e) => (e.content_block as { type: string }).type);
    expect(starts).toEqual(['thinking', 'text']);
    const thought = all
      .filter((e) => e.type === 'content_block_delta' && (e.delta as { type: string }).type === 'thinking_delta')
      .map((e) => (e.delta as { thinking: string }).thinking)
      .join('');
    expect(thought).toBe('Let me think.');
  });

  it('Messages client, whole: a thinking block before the text', async () => {
    local.next({ kind: 'json', body: whole });
    const r = await post(`${h.b}/v1/messages`, { ...messagesStream, ...thinking, stream: false });
    expect(r.status).toBe(200);
    expect(r.json.content.map((b: { type: string }) => b.type)).toEqual(['thinking', 'text']);
    expect(r.json.content[0].thinking).toBe('Let me think.');
  });

  it('Responses client, streamed and whole: a reasoning item before the message', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: streamed });
    const s = await post(`${h.a}/responses`, { ...responsesStream, reasoning: { effort: 'low', summary: 'auto' } });
    const done = events(s.text).find((e) => e.type === 'response.completed') as { response: { output: { type: string }[] } };
    expect(done.response.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    expect(JSON.stringify(done.response.output[0])).toContain('Let me think.');

    local.next({ kind: 'json', body: whole });
    const w = await post(`${h.a}/responses`, { ...responsesStream, stream: false, reasoning: { effort: 'low', summary: 'auto' } });
    expect(w.json.output.map((o: { type: string }) => o.type)).toEqual(['reasoning', 'message']);
    expect(JSON.stringify(w.json.output[0])).toContain('Let me think.');
  });
});

describe('vLLM/SGLang end a request their engine dropped with finish_reason "abort" (vllm-project/vllm#57082): a failure, not a finished answer', () => {
  const aborted = chunk({ role: 'assistant', content: 'The answer is' }) + chunk({}, 'abort') + 'data: [DONE]\n\n';
  const abortedCall =
    chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"p":' } }] }) + chunk({}, 'abort') + 'data: [DONE]\n\n';

  it('Responses client (Codex), streamed: an error event and response.failed, no response.completed with the cut answer', async () => {
    for (const body of [aborted, abortedCall]) {
      local.next({ kind: 'raw', contentType: 'text/event-stream', body });
      const r = await post(`${h.a}/responses`, responsesStream);
      expect(r.status).toBe(200);
      const all = events(r.text);
      expect(all.some((e) => e.type === 'response.completed')).toBe(false);
      const [error, failed] = all.slice(-2) as [{ type: string; code: string; message: string }, { type: string; response: { status: string; error: { code: string; message: string } } }];
      expect(error.type).toBe('error');
      expect(error.message).toMatch(/^llama: The upstream server aborted the answer before it was complete/);
      expect(failed.type).toBe('response.failed');
      expect(failed.response.status).toBe('failed');
      expect(failed.response.error.code).toBe(error.code);
    }
  });

  it('Messages client, streamed: the error event last, no message_stop', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: aborted });
    const r = await post(`${h.b}/v1/messages`, messagesStream);
    const all = events(r.text);
    expect(all.some((e) => e.type === 'message_stop')).toBe(false);
    const last = all.at(-1) as { type: string; error: { type: string; message: string } };
    expect(last.type).toBe('error');
    expect(last.error.message).toContain('aborted the answer');
  });

  it('the request log: the attempt and the entry carry upstream_error, the stream its 200', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: aborted });
    await post(`${h.b}/v1/messages`, messagesStream);
    const [log] = await h.waitForLogs(1);
    expect(log).toMatchObject({ status: 200, errorCode: 'upstream_error' });
    expect(log!.attempts.at(-1)).toMatchObject({ target: 'llama/qwen3-coder', errorCode: 'upstream_error' });
  });

  it('in a group, aborted before any text: the next target answers', async () => {
    h.config.groups.steady = { models: [{ name: 'code', targets: ['llama/qwen3-coder', 'anthropic/claude-sonnet-4-5'] }], created: '2026-01-02T03:04:05.000Z' } as never;
    try {
      local.next({ kind: 'raw', contentType: 'text/event-stream', body: chunk({ role: 'assistant', content: '' }) + chunk({}, 'abort') + 'data: [DONE]\n\n' });
      h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'From the next one.' } });
      const client = new OpenAI({ baseURL: h.groupA('steady'), apiKey: 'k', maxRetries: 0 });
      let text = '';
      for await (const ev of await client.responses.create({ model: 'code', input: 'x', stream: true })) if (ev.type === 'response.output_text.delta') text += ev.delta;
      expect(text).toBe('From the next one.');
    } finally {
      delete h.config.groups.steady;
    }
  });

  it('a whole answer (SDK): an APIError, not the cut text', async () => {
    local.next({
      kind: 'json',
      body: { id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'abort', message: { role: 'assistant', content: 'The answer is' } }] },
    });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const err = await client.responses.create({ model: 'llama/qwen3-coder', input: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    const e = err as InstanceType<typeof OpenAI.APIError>;
    expect(e.status).toBe(502);
    expect(e.message).toContain('aborted the answer before it was complete');
  });
});

describe('finish_reason "abort" on a Chat client’s passthrough: the failure the converted path reports, in the client’s shape', () => {
  // as vLLM writes its last chunk: stop_reason after finish_reason, then the usage chunk
  const vllmChunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish, stop_reason: null }] });
  const usage = JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 } });
  const text = vllmChunk({ role: 'assistant', content: 'The answer is' });
  const aborted = vllmChunk({}, 'abort');
  const chat = { model: 'llama/qwen3-coder', stream: true, messages: [{ role: 'user', content: 'x' }] };

  const bodies: Array<[string, () => void]> = [
    ['in one read, with the usage chunk', () => local.next({ kind: 'raw', contentType: 'text/event-stream', body: [text, aborted, usage, '[DONE]'].map((d) => `data: ${d}\n\n`).join('') })],
    ['an event per read', () => local.next({ kind: 'sse', events: [text, aborted, '[DONE]'].map((d) => ({ data: d === '[DONE]' ? d : (JSON.parse(d) as unknown) })) })],
    ['without [DONE]', () => local.next({ kind: 'raw', contentType: 'text/event-stream', body: [text, aborted].map((d) => `data: ${d}\n\n`).join('') })],
  ];
  for (const [how, send] of bodies) {
    it(`streamed, ${how}: the text so far, then svc-proxy’s error event last; no [DONE]`, async () => {
      send();
      const r = await post(`${h.a}/chat/completions`, chat);
      expect(r.status).toBe(200);
      expect(r.text).toContain('The answer is');
      expect(r.text).not.toContain('[DONE]');
      const last = events(r.text).at(-1) as { error: { code: string; message: string } };
      expect(last.error.code).toBe('upstream_error');
      expect(last.error.message).toMatch(/^llama: The upstream server aborted the answer before it was complete/);
      const [log] = await h.waitForLogs(1);
      expect(log).toMatchObject({ status: 200, errorCode: 'upstream_error' });
    });
  }

  it('streamed, in one read: the aborted chunk itself does not reach the client', async () => {
    bodies[0]![1]();
    const r = await post(`${h.a}/chat/completions`, chat);
    expect(r.text).not.toContain('"abort"');
  });

  // as vLLM and SGLang write it: the text in one read, the aborted chunk, usage and [DONE] at once after it
  it('streamed, the aborted chunk first in the last read: it does not reach the client either', async () => {
    const last = [aborted, usage, '[DONE]'].map((d) => `data: ${d}\n\n`).join('');
    local.next({ kind: 'sse', events: [{ data: JSON.parse(text) as unknown }, { raw: last, delayMs: 50 }] });
    const r = await post(`${h.a}/chat/completions`, chat);
    expect(r.text).toContain('The answer is');
    expect(r.text).not.toContain('"abort"');
    const end = events(r.text).at(-1) as { error: { code: string } };
    expect(end.error.code).toBe('upstream_error');
  });

  it('streamed, the aborted chunk cut across reads: no piece of it reaches the client', async () => {
    const last = `data: ${aborted}\n\ndata: [DONE]\n\n`;
    const cut = last.indexOf('"finish_reason"');
    local.next({ kind: 'sse', events: [{ raw: `data: ${text}\n\n${last.slice(0, cut)}` }, { raw: last.slice(cut), delayMs: 50 }] });
    const r = await post(`${h.a}/chat/completions`, chat);
    expect(r.text).toContain('The answer is');
    expect(r.text).not.toContain('"finish_reason":"abort"');
    expect(r.text.split('\n\n').filter((e) => e !== '').every((e) => e.startsWith('data: {'))).toBe(true);
    expect((events(r.text).at(-1) as { error: { code: string } }).error.code).toBe('upstream_error');
  });

  it('streamed, written with spaces (Python’s json.dumps): the aborted chunk does not reach the client either', async () => {
    const spaced = (json: string) => json.replaceAll('":', '": ').replaceAll(',"', ', "');
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: [spaced(text), spaced(aborted), '[DONE]'].map((d) => `data: ${d}\n\n`).join('') });
    const r = await post(`${h.a}/chat/completions`, chat);
    expect(r.text).toContain('The answer is');
    expect(r.text).not.toContain('"abort"');
    expect((events(r.text).at(-1) as { error: { code: string } }).error.code).toBe('upstream_error');
  });

  it('streamed, framed with CRLF line ends: the aborted chunk does not reach the client either', async () => {
    local.next({ kind: 'raw', contentType: 'text/event-stream', body: [text, aborted, usage, '[DONE]'].map((d) => `data: ${d}\r\n\r\n`).join('') });
    const r = await post(`${h.a}/chat/completions`, chat);
    expect(r.text).toContain('The answer is');
    expect(r.text).not.toContain('"abort"');
    expect(r.text).not.toContain('[DONE]');
    expect((events(r.text.replaceAll('\r\n', '\n')).at(-1) as { error: { code: string } }).error.code).toBe('upstream_error');
  });

  it('the OpenAI SDK’s stream throws an APIError', async () => {
    bodies[0]![1]();
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const err = await client.chat.completions
      .stream({ model: 'llama/qwen3-coder', messages: [{ role: 'user', content: 'x' }] })
      .finalChatCompletion()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as Error).message).toContain('aborted the answer before it was complete');
  });

  it('a whole answer: an APIError (502), not the cut text', async () => {
    local.next({ kind: 'json', body: { id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'abort', message: { role: 'assistant', content: 'The answer is' } }] } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const err = await client.chat.completions.create({ model: 'llama/qwen3-coder', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    const e = err as InstanceType<typeof OpenAI.APIError>;
    expect(e.status).toBe(502);
    expect(e.message).toContain('aborted the answer before it was complete');
  });

  it('in a group, streamed and aborted before any text: the next target answers', async () => {
    h.config.groups.steady = { models: [{ name: 'code', targets: ['llama/qwen3-coder', 'anthropic/claude-sonnet-4-5'] }], created: '2026-01-02T03:04:05.000Z' } as never;
    try {
      local.next({ kind: 'raw', contentType: 'text/event-stream', body: [vllmChunk({ role: 'assistant', content: '' }), aborted, '[DONE]'].map((d) => `data: ${d}\n\n`).join('') });
      h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'From the next one.' } });
      const client = new OpenAI({ baseURL: h.groupA('steady'), apiKey: 'k', maxRetries: 0 });
      const done = await client.chat.completions.stream({ model: 'code', messages: [{ role: 'user', content: 'x' }] }).finalChatCompletion();
      expect(done.choices[0]!.message.content).toBe('From the next one.');
    } finally {
      delete h.config.groups.steady;
    }
  });
});

describe("llama-server's 500 for input it cannot take (no projector for an image, tools without --jinja): the request's error, a 400", () => {
  const refusal = (message: string) => ({ kind: 'raw' as const, status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 500, message, type: 'server_error' } }) });
  const withImage = [{ role: 'user' as const, content: [{ type: 'input_text' as const, text: 'what is it?' }, { type: 'input_image' as const, image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' as const }] }];

  it('Responses client (SDK, as Codex): 400 invalid_request_error, not a 500 it would retry; the server\'s words kept', async () => {
    for (const message of ['image input is not supported - hint: if this is unexpected, you may need to provide the mmproj', 'Failed to parse messages: Unsupported content part type: "image_url"', 'tools param requires --jinja flag']) {
      local.next(refusal(message));
      const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
      const err = await client.responses.create({ model: 'llama/gemma3', input: withImage, stream: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      const e = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect(e.message).toContain(`llama: ${message}`);
      expect((e.error as { type: string }).type).toBe('invalid_request_error');
    }
  });

  it('Messages client: 400 invalid_request_error', async () => {
    local.next(refusal('image input is not supported - hint: if this is unexpected, you may need to provide the mmproj'));
    const r = await post(`${h.b}/v1/messages`, messagesStream);
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('invalid_request_error');
  });

  it('a group still moves on to its next target, which may take it', async () => {
    h.config.groups.vision = { models: [{ name: 'see', targets: ['llama/gemma3', 'anthropic/claude-sonnet-4-5'] }], created: '2026-01-02T03:04:05.000Z' } as never;
    try {
      local.next(refusal('image input is not supported - hint: if this is unexpected, you may need to provide the mmproj'));
      h.mocks.anthropic.next({ kind: 'turn', turn: { text: 'A pixel.' } });
      const client = new OpenAI({ baseURL: h.groupA('vision'), apiKey: 'k', maxRetries: 0 });
      const answer = await client.responses.create({ model: 'see', input: withImage });
      expect(answer.output_text).toBe('A pixel.');
    } finally {
      delete h.config.groups.vision;
    }
  });

  it('other 500s stay 5xx: the server may answer the next try', async () => {
    local.next(refusal('Failed to load model'));
    const r = await post(`${h.a}/responses`, responsesStream);
    expect(r.status).toBe(500);
  });
});

describe('reasoning replayed to a local server goes in both fields (llama-server reads reasoning_content, vLLM and Ollama reasoning)', () => {
  // Codex's second turn: its reasoning item (no id, as Codex sends it), the call and its output
  const input = [
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'read a' }] },
    { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need to read a.' }], encrypted_content: null },
    { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"p":"a"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'file a' },
  ];
  const tools = [{ type: 'function', name: 'read', parameters: { type: 'object', properties: { p: { type: 'string' } } }, strict: false }];

  it('Responses client: the assistant tool-call message carries reasoning_content and reasoning', async () => {
    local.next({ kind: 'turn', turn: { text: 'done' } });
    const r = await post(`${h.a}/responses`, { model: 'llama/gpt-oss:20b', stream: true, store: false, input, tools });
    expect(r.status).toBe(200);
    const sent = local.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> };
    const assistant = sent.messages.find((m) => m.role === 'assistant')!;
    expect(assistant.reasoning_content).toBe('Need to read a.');
    expect(assistant.reasoning).toBe('Need to read a.');
  });

  it('Messages client (Claude Code): its thinking block goes back in both fields too', async () => {
    local.next({ kind: 'turn', turn: { text: 'done' } });
    const r = await post(`${h.b}/v1/messages`, {
      model: 'llama/qwen3:30b',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'read', input_schema: { type: 'object', properties: { p: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'read a' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Need to read a.', signature: '' }, { type: 'tool_use', id: 'call_1', name: 'read', input: { p: 'a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'file a' }] },
      ],
    });
    expect(r.status).toBe(200);
    const sent = local.requests.at(-1)!.body as { messages: Array<Record<string, unknown>> };
    expect(sent.messages.find((m) => m.role === 'assistant')).toMatchObject({ reasoning: 'Need to read a.', reasoning_content: 'Need to read a.' });
  });
});

describe('a local server that refuses the connection: the error says to start it', () => {
  beforeAll(async () => {
    h.config.locals.off = { url: await closedPortUrl('/v1'), created: '2026-01-02T03:04:05.000Z', detected: false };
  });

  it('Messages client (SDK): 502 api_error, code upstream_unreachable, the hint in the message', async () => {
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const err = await client.messages.create({ model: 'off/qwen3', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(502);
    const body = e.error as { error: { type: string; code: string; message: string } };
    expect(body.error.type).toBe('api_error');
    expect(body.error.code).toBe('upstream_unreachable');
    expect(body.error.message).toMatch(/^off: Could not connect to http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. Is the server running on http:\/\/127\.0\.0\.1:\d+\?/);
  });

  it('Chat client (SDK), streamed: the same error before any byte', async () => {
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const err = await client.chat.completions.create({ model: 'off/qwen3', stream: true, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    const e = err as InstanceType<typeof OpenAI.APIError>;
    expect(e.status).toBe(502);
    expect(e.code).toBe('upstream_unreachable');
    expect(e.message).toContain('Is the server running on http://127.0.0.1:');
  });

  it('counting tokens on a Messages endpoint on this machine (llama-server, LM Studio): the same hint', async () => {
    h.config.endpoints.offb = { url: await closedPortUrl(), format: 'b', hasCredential: false, created: '2026-01-02T03:04:05.000Z' };
    try {
      const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
      const err = await client.messages.countTokens({ model: 'offb/qwen3', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.APIError);
      const e = err as InstanceType<typeof Anthropic.APIError>;
      expect(e.status).toBe(502);
      const body = e.error as { error: { code: string; message: string } };
      expect(body.error.code).toBe('upstream_unreachable');
      expect(body.error.message).toMatch(/\(ECONNREFUSED\)\. Is the server running on http:\/\/127\.0\.0\.1:\d+\?$/);
    } finally {
      delete h.config.endpoints.offb;
    }
  });

  it('a custom endpoint elsewhere gets no hint: only one on this machine is a server someone starts', () => {
    expect(customChatAdapter.refusedHint?.('http://10.1.2.3:8000/v1')).toBeUndefined();
    expect(customChatAdapter.refusedHint?.('http://localhost:8000/v1')).toBe('Is the server running on http://localhost:8000?');
    expect(customMessagesAdapter.refusedHint?.('http://[::1]:11434')).toBe('Is Ollama running? Start it with `ollama serve`.');
  });

  it('the hint names Ollama and LM Studio on their own ports', () => {
    expect(localAdapter.refusedHint?.('http://127.0.0.1:11434/v1')).toBe('Is Ollama running? Start it with `ollama serve`.');
    expect(localAdapter.refusedHint?.('http://localhost:1234/v1')).toBe('Is LM Studio running? Start its server in the app or with `lms server start`.');
    expect(localAdapter.refusedHint?.('http://127.0.0.1:8080/v1')).toBe('Is the server running on http://127.0.0.1:8080?');
  });
});
