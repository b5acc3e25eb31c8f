/** A provider credential or a service key that an upstream echoes back reaches neither the client nor the log. */
import { request } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { maskEchoedBytes, maskEchoedText } from '../../src/routing/echoed-secrets.js';
import { KEYS, post, useHarness } from './harness.js';

const t = useHarness({ settings: { logBodies: true } });
const SERVICE_KEY = 'sk-svc-proxy-3kTQm8VdPa1xZr9yLw2bNc5Hj7Fe4Gs6AbCdEfGhIjK';
const echo = (credential: string) => `your key is ${credential}, and mine is ${SERVICE_KEY}.`;

function expectMasked(text: string, ...secrets: string[]): void {
  for (const s of secrets) expect(text).not.toContain(s);
  expect(text).toContain('[REDACTED]');
}

function get(url: string, method = 'GET'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { authorization: 'Bearer k' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('whole answers', () => {
  it('passthrough: the credential and a service key in the answer are masked, for the client and the log', async () => {
    const { h } = t;
    h.mocks.openrouter.next({ kind: 'turn', turn: { text: echo(KEYS.openrouter) } });
    const r = await post(`${h.a}/chat/completions`, { model: 'openrouter/anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expectMasked(r.text, KEYS.openrouter, SERVICE_KEY);
    expect(r.json.choices[0].message.content).toContain('your key is [REDACTED], and mine is');
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.text));
    await h.waitForLogs(1);
    expect(JSON.stringify(h.logs)).not.toContain(KEYS.openrouter);
  });

  it('converted: masked the same way', async () => {
    const { h } = t;
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: echo(KEYS.anthropic) } });
    const r = await post(`${h.a}/chat/completions`, { model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expectMasked(r.text, KEYS.anthropic, SERVICE_KEY);
  });

  it('a service key after a line break, tab or word character, or right after another key, is masked too', async () => {
    const { h } = t;
    // JSON writes a line break or tab as \n, \t: the key then follows a word character
    const text = `keys:\n${SERVICE_KEY}\t${SERVICE_KEY} x_${SERVICE_KEY}${SERVICE_KEY}`;
    h.mocks.openrouter.next({ kind: 'turn', turn: { text } });
    const r = await post(`${h.a}/chat/completions`, { model: 'openrouter/anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.text).not.toContain(SERVICE_KEY.slice(13));
    expect(r.json.choices[0].message.content).toBe('keys:\n[REDACTED]\t[REDACTED] x_[REDACTED][REDACTED]');
    h.mocks.anthropic.next({ kind: 'turn', turn: { text, stream: { chunk: 1000 } } });
    const s = await post(`${h.a}/chat/completions`, { model: 'anthropic/claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(s.text).not.toContain(SERVICE_KEY.slice(13));
  });

  it('an answer with neither goes out unchanged', async () => {
    const { h } = t;
    h.mocks.openrouter.next({ kind: 'turn', turn: { text: 'sk- and sk-svc-proxy- alone are no keys' } });
    const r = await post(`${h.a}/chat/completions`, { model: 'openrouter/anthropic/claude-sonnet-4.5', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.json.choices[0].message.content).toBe('sk- and sk-svc-proxy- alone are no keys');
  });
});

describe('converted streams', () => {
  it('the credential and a service key in streamed text are masked', async () => {
    const { h } = t;
    h.mocks.anthropic.next({ kind: 'turn', turn: { text: echo(KEYS.anthropic), stream: { chunk: 1000 } } });
    const r = await post(`${h.a}/chat/completions`, { model: 'anthropic/claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
    expectMasked(r.text, KEYS.anthropic, SERVICE_KEY);
    expect(r.text).toContain('[DONE]');
  });

  it('the credential cut across text deltas is masked too, in every client dialect, whatever the cut', async () => {
    const { h } = t;
    const text = `key: ${KEYS.anthropic}!`;
    // deltas of 1 to 9 characters cut the credential at every offset somewhere
    for (let chunk = 1; chunk <= 9; chunk++) {
      h.mocks.anthropic.next({ kind: 'turn', turn: { text, stream: { chunk } } });
      const chat = await post(`${h.a}/chat/completions`, { model: 'anthropic/claude-sonnet-4-5', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      const said = chat.text
        .split('\n')
        .filter((l) => l.startsWith('data: {'))
        .map((l) => (JSON.parse(l.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '')
        .join('');
      expect(said, `deltas of ${chunk}`).toBe('key: [REDACTED]!');
    }
    h.mocks.openrouter.next({ kind: 'turn', turn: { text: `key: ${KEYS.openrouter}!`, stream: { chunk: 5 } } });
    const responses = await post(`${h.a}/responses`, { model: 'openrouter/anthropic/claude-sonnet-4.5', stream: true, input: 'hi' });
    expect(responses.text).not.toContain(KEYS.openrouter);
    expect(responses.text).toContain('key: [REDACTED]!');
    h.mocks.openai.next({ kind: 'turn', turn: { text: `key: ${KEYS.openai}!`, stream: { chunk: 4 } } });
    const messages = await post(`${h.b}/v1/messages`, { model: 'openai/gpt-5.4', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(messages.text).not.toContain(KEYS.openai);
    expect(messages.text).toContain('[REDACTED]');
  });
});

describe('converted streams: reasoning and tool-call arguments', () => {
  /** What a client joins from each kind of delta. */
  interface Said {
    text: string;
    reasoning: string;
    args: string;
  }
  const tools = [{ type: 'function' as const, function: { name: 'save', description: 'save a note', parameters: { type: 'object', properties: { note: { type: 'string' } } } } }];
  /** The answer: the credential and a service key in reasoning and arguments, a service key in the text. */
  const turn = (credential: string, chunk: number) => ({
    reasoning: { text: `thinking of ${credential} and ${SERVICE_KEY} now` },
    text: `saving ${SERVICE_KEY}`,
    toolCalls: [{ name: 'save', arguments: { note: `${credential} and ${SERVICE_KEY}` } }],
    stream: { chunk },
  });
  const expected: Said = {
    text: 'saving [REDACTED]',
    reasoning: 'thinking of [REDACTED] and [REDACTED] now',
    args: JSON.stringify({ note: '[REDACTED] and [REDACTED]' }),
  };

  async function chat(): Promise<Said> {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const said: Said = { text: '', reasoning: '', args: '' };
    const stream = await client.chat.completions.create({ model: 'anthropic/claude-sonnet-4-5', stream: true, reasoning_effort: 'low', tools, messages: [{ role: 'user', content: 'hi' }] });
    for await (const c of stream) {
      const d = c.choices[0]?.delta as { content?: string; reasoning_content?: string; tool_calls?: Array<{ function?: { arguments?: string } }> } | undefined;
      said.text += d?.content ?? '';
      said.reasoning += d?.reasoning_content ?? '';
      for (const call of d?.tool_calls ?? []) said.args += call.function?.arguments ?? '';
    }
    return said;
  }

  async function responses(): Promise<Said> {
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    const said: Said = { text: '', reasoning: '', args: '' };
    const stream = await client.responses.create({
      model: 'anthropic/claude-sonnet-4-5',
      stream: true,
      reasoning: { effort: 'low', summary: 'auto' },
      tools: [{ type: 'function', name: 'save', description: 'save a note', parameters: tools[0]!.function.parameters, strict: false }],
      input: 'hi',
    });
    for await (const ev of stream) {
      if (ev.type === 'response.output_text.delta') said.text += ev.delta;
      else if (ev.type === 'response.reasoning_summary_text.delta' || ev.type === 'response.reasoning_text.delta') said.reasoning += ev.delta;
      else if (ev.type === 'response.function_call_arguments.delta') said.args += ev.delta;
    }
    return said;
  }

  async function messages(): Promise<Said> {
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const said: Said = { text: '', reasoning: '', args: '' };
    const stream = await client.messages.create({
      model: 'openai/gpt-5.4',
      max_tokens: 4000,
      stream: true,
      thinking: { type: 'enabled', budget_tokens: 2000 },
      tools: [{ name: 'save', description: 'save a note', input_schema: { type: 'object', properties: { note: { type: 'string' } } } }],
      messages: [{ role: 'user', content: 'hi' }],
    });
    for await (const ev of stream) {
      if (ev.type !== 'content_block_delta') continue;
      if (ev.delta.type === 'text_delta') said.text += ev.delta.text;
      else if (ev.delta.type === 'thinking_delta') said.reasoning += ev.delta.thinking;
      else if (ev.delta.type === 'input_json_delta') said.args += ev.delta.partial_json;
    }
    return said;
  }

  it('a credential and a service key split across reasoning and argument deltas are masked, in every client dialect, whatever the cut', async () => {
    const { h } = t;
    // deltas of 1 to 9 characters cut both at every offset somewhere
    for (let chunk = 1; chunk <= 9; chunk++) {
      h.mocks.anthropic.next({ kind: 'turn', turn: turn(KEYS.anthropic, chunk) });
      expect(await chat(), `chat, deltas of ${chunk}`).toEqual(expected);
      h.mocks.anthropic.next({ kind: 'turn', turn: turn(KEYS.anthropic, chunk) });
      expect(await responses(), `responses, deltas of ${chunk}`).toEqual(expected);
      h.mocks.openai.next({ kind: 'turn', turn: turn(KEYS.openai, chunk) });
      expect(await messages(), `messages, deltas of ${chunk}`).toEqual(expected);
    }
  });
});

describe("OpenAI's stored objects and transcriptions, relayed as they came", () => {
  it('a stored response', async () => {
    const { h } = t;
    h.mocks.openai.on('/v1/responses/resp_abc', { kind: 'json', body: { id: 'resp_abc', object: 'response', output_text: echo(KEYS.openai) } });
    const r = await get(`${h.a}/responses/resp_abc`);
    expect(r.status).toBe(200);
    expectMasked(r.text, KEYS.openai, SERVICE_KEY);
    expect(JSON.parse(r.text).id).toBe('resp_abc');
  });

  it('a conversation', async () => {
    const { h } = t;
    h.mocks.openai.on('/v1/conversations/conv_abc', { kind: 'json', body: { id: 'conv_abc', object: 'conversation', metadata: { note: echo(KEYS.openai) } } });
    const r = await get(`${h.a}/conversations/conv_abc`);
    expect(r.status).toBe(200);
    expectMasked(r.text, KEYS.openai, SERVICE_KEY);
  });

  it('a transcription', async () => {
    const { h } = t;
    h.mocks.ca.on('/v1/audio/transcriptions', { kind: 'json', body: { text: echo(KEYS.ca) } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const file = new File([Buffer.alloc(100, 3)], 'a.wav', { type: 'audio/wav' });
    const out = await client.audio.transcriptions.create({ model: 'ca/whisper-large-v3', file });
    expectMasked(out.text, KEYS.ca, SERVICE_KEY);
  });
});

describe('the masks themselves', () => {
  it('hand back the very Buffer or string when neither secret is there (no copy on the hot path)', () => {
    const buf = Buffer.from('{"text":"nothing to see, sk-svc-proxy- alone"}');
    expect(maskEchoedBytes(buf, [KEYS.openai])).toBe(buf);
    const text = 'data: {"delta":"plain"}\n\n';
    expect(maskEchoedText(text, [KEYS.openai])).toBe(text);
  });

  it('keep every other byte of a body that is not UTF-8 text', () => {
    const buf = Buffer.concat([Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(` ${KEYS.openai} `), Buffer.from([0xc3])]);
    expect(maskEchoedBytes(buf, [KEYS.openai])).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe, 0x80]), Buffer.from(' [REDACTED] '), Buffer.from([0xc3])]));
  });
});
