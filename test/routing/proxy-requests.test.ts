/**
 * createProxyHandler end to end (in-process server, real providers and codecs, mock upstreams):
 * request checks, target resolution, effort policy and per-target policy.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEYS, post, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ settings: { bodyLimitBytes: 64 * 1024 } });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'hi' }], ...extra });
const nothingSent = () => {
  for (const m of Object.values(h.mocks)) expect(m.generations()).toHaveLength(0);
};

describe('request body checks', () => {
  it('invalid JSON → 400 invalid_json (protocol A shape)', async () => {
    const r = await post(`${h.a}/chat/completions`, '{"model": "openai/x",');
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalid_json', type: 'invalid_request_error' });
    nothingSent();
  });

  it('protocol B errors use the Anthropic shape', async () => {
    const r = await post(`${h.b}/v1/messages`, '[1]');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_request' } });
  });

  it('wrong content type → 415 invalid_content_type', async () => {
    const r = await post(`${h.a}/chat/completions`, JSON.stringify(chat('openai/gpt-5.4')), { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.json.error.code).toBe('invalid_content_type');
  });

  it('a compressed audio upload → 415 unsupported_content_encoding (it is relayed as it arrives)', async () => {
    const body = '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nca/whisper\r\n--b--\r\n';
    const r = await post(`${h.a}/audio/transcriptions`, body, { 'content-type': 'multipart/form-data; boundary=b', 'content-encoding': 'gzip' });
    expect(r.status).toBe(415);
    expect(r.json.error).toMatchObject({ code: 'unsupported_content_encoding', message: 'Send the audio upload uncompressed (it came with Content-Encoding "gzip"); audio formats are compressed already.' });
    expect(h.mocks.ca.requests).toHaveLength(0);
  });

  it('model missing or not a string → 400 invalid_model', async () => {
    expect((await post(`${h.a}/chat/completions`, { messages: [] })).json.error.code).toBe('invalid_model');
    expect((await post(`${h.a}/chat/completions`, { model: 42, messages: [] })).json.error.code).toBe('invalid_model');
  });

  it('body over the limit by Content-Length → 413 without reading; connection closed', async () => {
    const r = await post(`${h.a}/chat/completions`, 'x'.repeat(70 * 1024));
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe('request_too_large');
    expect(r.headers.connection).toBe('close');
    expect(h.logs[0]).toMatchObject({ status: 413, errorCode: 'request_too_large' });
  });

  it('chunked body over the limit → 413, reading stops', async () => {
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${h.a}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (r) => {
        let body = '';
        r.on('data', (c: Buffer) => (body += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      let sent = 0;
      const pump = () => {
        while (sent < 10 * 1024 * 1024) {
          sent += 16 * 1024;
          if (!req.write(Buffer.alloc(16 * 1024, 0x20))) return void req.once('drain', pump);
        }
        req.end();
      };
      req.on('error', () => undefined);
      pump();
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe('request_too_large');
  });
});

describe('targets', () => {
  it('no slash → 400 invalid_model', async () => {
    const r = await post(`${h.a}/chat/completions`, chat('gpt-5'));
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_model');
  });

  it('unknown provider → 400 invalid_model naming the known ones', async () => {
    const r = await post(`${h.a}/chat/completions`, chat('nope/model'));
    expect(r.json.error.code).toBe('invalid_model');
    for (const slug of ['anthropic', 'openai', 'openrouter', 'gemini', 'ca', 'cb']) expect(r.json.error.message).toContain(slug);
  });

  it('provider without credential → 400 provider_not_connected with how to connect', async () => {
    h.credentials.delete('gemini');
    try {
      const r = await post(`${h.a}/chat/completions`, chat('gemini/gemini-2.5-flash'));
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('provider_not_connected');
      expect(r.json.error.message).toMatch(/svc-proxy provider connect gemini/);
    } finally {
      h.credentials.set('gemini', KEYS.gemini);
    }
  });

  it('splits at the first slash: openrouter/vendor/model reaches OpenRouter as vendor/model', async () => {
    const r = await post(`${h.a}/chat/completions`, chat('openrouter/meta-llama/llama-4-maverick'));
    expect(r.status).toBe(200);
    expect(h.mocks.openrouter.lastGeneration().body.model).toBe('meta-llama/llama-4-maverick');
    expect(r.json.model).toBe('openrouter/meta-llama/llama-4-maverick');
  });
});

describe('system messages on the way to OpenAI (Responses)', () => {
  it('a Chat system message from the middle of the conversation stays there; the leading one is the instructions', async () => {
    const messages = [
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'What is 2+2?' },
      { role: 'assistant', content: '4.' },
      { role: 'developer', content: 'From now on, a number only.' },
      { role: 'user', content: 'And 3+3?' },
    ];
    const r = await post(`${h.a}/chat/completions`, { model: 'openai/gpt-5.4', messages });
    expect(r.status).toBe(200);
    const sent = h.mocks.openai.lastGeneration().body as { instructions?: string; input: Array<{ role?: string }> };
    expect(sent.instructions).toBe('Be terse.');
    expect(sent.input.map((i) => i.role)).toEqual(['user', 'assistant', 'developer', 'user']);
  });
});

describe('effort policy', () => {
  it('an invalid value → 400 invalid_reasoning before anything is sent (passthrough and converted)', async () => {
    for (const [url, body] of [
      [`${h.a}/chat/completions`, chat('openrouter/openai/gpt-5', { reasoning_effort: 'ultra' })],
      [`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5', { reasoning_effort: 'ultra' })],
      [`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'hi', reasoning: { effort: 7 } }],
      [`${h.b}/v1/messages`, { model: 'anthropic/claude-opus-4-7', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], output_config: { effort: 'HIGH' } }],
    ] as const) {
      const r = await post(url, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code ?? r.json.error.code).toBe('invalid_reasoning');
    }
    nothingSent();
  });

  it('xhigh to gemini arrives as high; the log shows asked and sent', async () => {
    const r = await post(`${h.a}/chat/completions`, chat('gemini/gemini-2.5-flash', { reasoning_effort: 'xhigh' }));
    expect(r.status).toBe(200);
    expect(h.mocks.gemini.lastGeneration().body.reasoning_effort).toBe('high');
    expect(h.logs[0]).toMatchObject({ effortAsked: 'xhigh', effortSent: 'high' });
  });

  it('max to openrouter arrives as xhigh in its reasoning object', async () => {
    await post(`${h.a}/chat/completions`, chat('openrouter/openai/gpt-5', { reasoning_effort: 'max' }));
    const body = h.mocks.openrouter.lastGeneration().body;
    expect(body.reasoning).toEqual({ effort: 'xhigh' });
    expect(body.reasoning_effort).toBeUndefined();
  });

  it('a custom endpoint (format a) gets the effort as given, never lowered', async () => {
    await post(`${h.a}/chat/completions`, chat('ca/qwen3-coder', { reasoning_effort: 'max' }));
    expect(h.mocks.ca.lastGeneration().body.reasoning_effort).toBe('max');
  });

  it('a Messages client budget maps to a level for a chat target', async () => {
    await post(`${h.b}/v1/messages`, {
      model: 'gemini/gemini-2.5-flash',
      max_tokens: 20000,
      thinking: { type: 'enabled', budget_tokens: 8000 },
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(h.mocks.gemini.lastGeneration().body.reasoning_effort).toBe('medium');
    expect(h.logs[0]!.effortAsked).toBe('thinking:enabled/8000');
  });
});

describe('per-target policy', () => {
  const audio = {
    model: 'anthropic/claude-sonnet-4-5',
    messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }],
  };

  it('input_audio to anthropic → 400 unsupported_modality; to gemini it is delivered', async () => {
    const r = await post(`${h.a}/chat/completions`, audio);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('unsupported_modality');
    nothingSent();
    const ok = await post(`${h.a}/chat/completions`, { ...audio, model: 'gemini/gemini-2.5-flash' });
    expect(ok.status).toBe(200);
    expect(JSON.stringify(h.mocks.gemini.lastGeneration().body.messages)).toContain('input_audio');
  });

  it('hosted tools on /responses with a non-openai model → 400 unsupported_feature (web search only where the model searches)', async () => {
    const r = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('unsupported_feature');
    expect(r.json.error.message).toContain('file_search');
    const search = await post(`${h.a}/responses`, { model: 'gemini/gemini-2.5-flash', input: 'x', tools: [{ type: 'web_search' }] });
    expect(search.status).toBe(400);
    expect(search.json.error.message).toContain('Web search (web_search) runs only on anthropic/… and openai/… models; gemini cannot search.');
    nothingSent();
  });

  it('background → 400 unsupported_feature, even for openai; a conversation off openai/…; a previous_response_id svc-proxy did not keep, off openai/…', async () => {
    const background = await post(`${h.a}/responses`, { model: 'openai/gpt-5.4', input: 'x', background: true });
    expect(background.status).toBe(400);
    expect(background.json.error.code).toBe('unsupported_feature');
    const conversation = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', conversation: 'conv_1' });
    expect(conversation.status).toBe(400);
    expect(conversation.json.error).toMatchObject({ code: 'unsupported_feature', param: 'conversation' });
    for (const model of ['anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash']) {
      const r = await post(`${h.a}/responses`, { model, input: 'x', previous_response_id: 'resp_1' });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
      expect(r.json.error.message).toBe("previous_response_id names a response neither svc-proxy nor OpenAI keeps: openai: Response with id 'resp_1' not found.");
    }
    nothingSent();
    // with openai not connected, nobody is asked
    const saved = h.config.providers.openai;
    h.config.providers.openai = { ...saved, enabled: false };
    try {
      const r = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', previous_response_id: 'resp_1' });
      expect(r.json.error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
      expect(r.json.error.message).toMatch(/^previous_response_id names a response svc-proxy does not keep .*, and anthropic keeps none; OpenAI's own ids are resolved by openai\/… models, and read from OpenAI for other models when openai is connected\./);
    } finally {
      h.config.providers.openai = saved;
    }
    expect(h.mocks.openai.requests.map((r) => r.path)).toEqual(['/v1/responses/resp_1/input_items', '/v1/responses/resp_1/input_items']);
  });

  it('a previous_response_id that is no response id (`..`, a number) is refused, never passed over or made a path read from OpenAI with the daemon’s credential', async () => {
    for (const id of [5, { id: 'resp_1' }, ['resp_1']]) {
      const r = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', previous_response_id: id });
      expect([r.status, r.json.error.code, r.json.error.param]).toEqual([400, 'invalid_request', 'previous_response_id']);
    }
    for (const id of ['..', '.', '../files', 'resp_1?x=1']) {
      const r = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'x', previous_response_id: id });
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
    }
    expect(h.mocks.openai.requests.map((r) => r.path)).toEqual([]);
    nothingSent();
  });

  it('with openai not connected: a stored response nobody keeps is 404 response_not_found saying why, the Conversations API 400 provider_not_connected; a wrong method on a stored response is 405', async () => {
    const saved = h.config.providers.openai;
    h.config.providers.openai = { ...saved, enabled: false };
    try {
      const get = await fetch(`${h.a}/responses/resp_1`, { headers: { authorization: 'Bearer sk-svc-proxy-test' } });
      const got = (await get.json()) as { error: { code: string; message: string } };
      expect([get.status, got.error.code]).toEqual([404, 'response_not_found']);
      expect(got.error.message).toMatch(/svc-proxy keeps the answers it converts for this service key .*, and openai, which keeps its own, is not connected\./);
      const conv = await post(`${h.a}/conversations`, {});
      expect([conv.status, conv.json.error.code]).toEqual([400, 'provider_not_connected']);
      expect(conv.json.error.message).toMatch(/^Conversations are kept by OpenAI, and svc-proxy reaches them through the openai provider: Provider "openai" is disabled/);
    } finally {
      h.config.providers.openai = saved;
    }
    const wrong = await post(`${h.a}/responses/resp_1`, {});
    expect([wrong.status, wrong.json.error.code]).toEqual([405, 'method_not_allowed']);
    expect(h.mocks.openai.requests).toHaveLength(0);
  });

  it('previous_response_id naming a kept answer whose request was large (read lazily): the conversation goes on whole', async () => {
    const big = `${'long prompt text '.repeat(3000)}the end`;
    const first = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: [{ role: 'user', content: big }] });
    expect(first.status).toBe(200);
    const next = await post(`${h.a}/responses`, { model: 'anthropic/claude-sonnet-4-5', input: 'And then?', previous_response_id: first.json.id });
    expect(next.status).toBe(200);
    const messages = h.mocks.anthropic.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(messages[0]!.content)).toContain(big);
    expect(JSON.stringify(messages[2]!.content)).toContain('And then?');
  });

  it('a conversion the target cannot express is that target\'s 400, nothing sent', async () => {
    const r = await post(`${h.a}/chat/completions`, chat('anthropic/claude-sonnet-4-5', { n: 3 }));
    expect(r.status).toBe(400);
    nothingSent();
    expect(h.logs[0]!.attempts[0]).toMatchObject({ target: 'anthropic/claude-sonnet-4-5', status: 0 });
    expect(h.logs[0]!.attempts[0]!.skipped).toBeTruthy();
  });
});

describe('large passthrough bodies (spliced, not re-serialised)', () => {
  const history = Array.from({ length: 120 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `turn ${i}: ${'lorem ipsum "quoted" \\ unicode ü 🎉 '.repeat(8)}`,
  }));

  it('gemini: model, effort, roles and tool schemas edited; the rest arrives byte-identical', async () => {
    const body = {
      model: 'gemini/gemini-2.5-flash',
      messages: [{ role: 'developer', content: 'be brief' }, ...history],
      tools: [{ type: 'function', function: { name: 'f', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } } }],
      reasoning_effort: 'max',
      temperature: 1.0,
    };
    const raw = JSON.stringify(body);
    expect(raw.length).toBeGreaterThan(16 * 1024);
    const r = await post(`${h.a}/chat/completions`, raw);
    expect(r.status).toBe(200);
    const sent = h.mocks.gemini.lastGeneration();
    expect(sent.body.model).toBe('gemini-2.5-flash');
    expect(sent.body.reasoning_effort).toBe('high');
    expect(sent.body.messages[0].role).toBe('system');
    expect(sent.body.tools[0].function.parameters.$schema).toBeUndefined();
    expect(sent.body.messages.slice(1)).toEqual(history);
    // history bytes untouched
    const historyRaw = JSON.stringify(history).slice(1, -1);
    expect(sent.raw.toString('utf8')).toContain(historyRaw);
  });

  it('anthropic (Messages client): signed thinking blocks arrive byte for byte', async () => {
    const signature = 'EqQBCkgIARABGAIiQ' + 'x'.repeat(300);
    const messages = [
      ...history.map((m) => ({ role: m.role, content: m.content })),
      { role: 'user', content: 'next' },
    ];
    const raw = `{"model":"anthropic/claude-sonnet-4-5","max_tokens":100,"messages":${JSON.stringify(messages)},"metadata":{"user_id":"u1"},"x_float":1.50}`;
    h.mocks.anthropic.strict = false;
    const r = await post(`${h.b}/v1/messages`, raw.replace('"x_float":1.50', `"x_sig":"${signature}","x_float":1.50`));
    expect(r.status).toBe(200);
    const sentRaw = h.mocks.anthropic.lastGeneration().raw.toString('utf8');
    expect(sentRaw.startsWith('{"model":"claude-sonnet-4-5","max_tokens":100,"messages":')).toBe(true);
    expect(sentRaw).toContain(`"x_sig":"${signature}","x_float":1.50}`); // even 1.50 keeps its spelling
  });
});

describe('large bodies: the conversation is parsed only when something needs it', () => {
  const pad = { role: 'user', content: 'x'.repeat(20 * 1024) };
  const audioTurn = { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] };

  it('input_audio is still refused for a target without audio, plainly or \\u-escaped', async () => {
    // a Responses client to openai is passthrough: only the feature check stands in the way
    const responses = JSON.stringify({ model: 'openai/gpt-5.4', input: [pad, audioTurn] });
    const chat = JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', messages: [pad, audioTurn] });
    for (const [url, raw] of [[`${h.a}/responses`, responses], [`${h.a}/chat/completions`, chat]] as const) {
      // escaped everywhere: as the part's type and as its payload's key
      for (const sent of [raw, raw.replaceAll('"input_audio"', '"input\\u005faudio"')]) {
        const r = await post(url, sent);
        expect(r.status).toBe(400);
        expect(r.json.error.code).toBe('unsupported_modality');
      }
    }
    nothingSent();
  });

  it('a developer turn still becomes system for a custom endpoint, plainly or \\u-escaped', async () => {
    const raw = JSON.stringify({ model: 'ca/qwen3-coder', messages: [{ role: 'developer', content: 'be brief' }, pad] });
    for (const sent of [raw, raw.replace('"developer"', '"develop\\u0065r"')]) {
      expect((await post(`${h.a}/chat/completions`, sent)).status).toBe(200);
      const upstream = h.mocks.ca.lastGeneration().body;
      expect(upstream.messages[0]).toEqual({ role: 'system', content: 'be brief' });
      expect(upstream.messages[1]).toEqual(pad);
    }
  });

  it('a conversation with neither goes upstream as its bytes, unparsed', async () => {
    const raw = `{"model":"ca/qwen3-coder","messages":[${JSON.stringify(pad)},{"role":"user","content":"hi"}],"temperature":1.50}`;
    expect((await post(`${h.a}/chat/completions`, raw)).status).toBe(200);
    expect(h.mocks.ca.lastGeneration().raw.toString()).toBe(raw.replace('"ca/qwen3-coder"', '"qwen3-coder"'));
  });

  // escapes JSON.stringify would spell otherwise (é, /): seeing them upstream proves the bytes were reused
  const spelled = `"${'x'.repeat(4 * 1024)}\\u00e9\\/\\n\\"quoted\\""`;
  const decoded = `${'x'.repeat(4 * 1024)}é/\n"quoted"`;

  it('a converted conversation carries its long strings upstream as the client spelled them', async () => {
    const raw = `{"model":"anthropic/claude-sonnet-4-5","max_tokens":50,"messages":[${JSON.stringify(pad)},{"role":"user","content":${spelled}}]}`;
    expect((await post(`${h.a}/chat/completions`, raw)).status).toBe(200);
    const sent = h.mocks.anthropic.lastGeneration();
    expect(sent.raw.toString()).toContain(spelled);
    expect(sent.body.messages.at(-1).content).toContainEqual({ type: 'text', text: decoded }); // one user turn with pad's
    h.reset();
    // the other way: a Messages tool result becomes a chat tool message
    const messages = JSON.stringify({
      model: 'ca/qwen3-coder',
      max_tokens: 50,
      messages: [
        { role: 'user', content: pad.content },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'TOOL_RESULT' }] },
      ],
    }).replace('"TOOL_RESULT"', spelled);
    expect((await post(`${h.b}/v1/messages`, messages)).status).toBe(200);
    const chatSent = h.mocks.ca.lastGeneration();
    expect(chatSent.raw.toString()).toContain(spelled);
    expect(chatSent.body.messages).toContainEqual({ role: 'tool', tool_call_id: 'toolu_1', content: decoded });
  });

  it('a passthrough member that was edited keeps its long strings as sent', async () => {
    const turns = `${JSON.stringify(pad)},{"role":"user","content":${spelled}}`;
    const raw = `{"model":"ca/qwen3-coder","messages":[{"role":"developer","content":"be brief"},${turns}]}`;
    expect((await post(`${h.a}/chat/completions`, raw)).status).toBe(200);
    const sent = h.mocks.ca.lastGeneration().raw.toString();
    expect(sent === `{"model":"qwen3-coder","messages":[{"role":"system","content":"be brief"},${turns}]}`).toBe(true);
  });

  it('a JSON error inside it: sent on as is to a same-dialect target (the upstream judges); 400 invalid_json where svc-proxy must read it', async () => {
    const raw = JSON.stringify({ model: 'ca/qwen3-coder', messages: [pad, { role: 'user', content: 'hi' }] }).replace('"content":"hi"}', '"content":"hi",}');
    await post(`${h.a}/chat/completions`, raw);
    expect(h.mocks.ca.lastGeneration().raw.toString()).toContain('"content":"hi",}]}');
    h.reset();
    const converted = await post(`${h.a}/chat/completions`, raw.replace('"ca/qwen3-coder"', '"anthropic/claude-sonnet-4-5"'));
    expect(converted.status).toBe(400);
    expect(converted.json.error.code).toBe('invalid_json');
    expect(converted.json.error.message).toContain('"messages"');
    nothingSent();
  });
});

describe('requests in flight (the idle collector waits for none)', () => {
  it('counts a request from its arrival until its answer is done', async () => {
    expect(h.handler.requestsInFlight?.()).toBe(0);
    let answered: (status: number) => void = () => undefined;
    const status = new Promise<number>((resolve) => (answered = resolve));
    const req = request(`${h.a}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (r) => {
      r.resume();
      r.on('end', () => answered(r.statusCode ?? 0));
    });
    req.write('{"model": "ca/x", "messages": [');
    const deadline = Date.now() + 5_000;
    while (h.handler.requestsInFlight?.() !== 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(h.handler.requestsInFlight?.()).toBe(1); // still reading its body
    req.end('{"role": "user", "content": "hi"}]}');
    expect(await status).toBe(200);
    while (h.handler.requestsInFlight?.() !== 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(h.handler.requestsInFlight?.()).toBe(0);
  });
});
