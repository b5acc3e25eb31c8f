/** Unit tests of the routing building blocks (no I/O). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configSchema, CONFIG_VERSION } from '../../src/config/schema.js';
import type { HubEvent, HubRequest, HubResponse } from '../../src/protocols/hub.js';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lazyJsonBody, unparsedMember } from '../../src/protocols/lazy-json.js';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { effortFromThinking, lowerEffort, readEffort } from '../../src/routing/effort.js';
import { shouldFallback } from '../../src/routing/fallback.js';
import { finalErrorEvent } from '../../src/routing/stream-errors.js';
import { policyRefusal, readFeatures } from '../../src/routing/policy.js';
import { ReasoningCache } from '../../src/routing/reasoning-cache.js';
import { attachToHub, attachToRequest, dropUnprovenManualThinking, dropUnprovenThinking, rememberOutput } from '../../src/routing/reasoning-continuity.js';
import { redactForLog, redactSecret } from '../../src/routing/redact.js';
import { resolveTargets, splitModelId } from '../../src/routing/targets.js';
import { restoreEventToolName, restoreResponseToolNames, safeToolName, shortenToolNames } from '../../src/routing/tool-names.js';
import { describeStreamError, isErrorBody, upstreamFailure } from '../../src/routing/upstream-errors.js';

/** A fake adapter: only the fields routing reads. */
function adapter(over: Partial<ProviderAdapter>): ProviderAdapter {
  return {
    kind: 'custom-a',
    dialect: 'chat',
    highestEffort: null,
    accepts: { inputAudio: true, hostedTools: false, webSearch: false, transcriptions: false },
    normaliseBaseUrl: (u) => u,
    url: (b) => b,
    headers: () => ({}),
    encodeOptions: () => ({ replayReasoning: [] }),
    finalizeBody: () => ({}),
    normaliseModelId: (id) => id,
    ...over,
  };
}

describe('targets', () => {
  const config = configSchema.parse({
    version: CONFIG_VERSION,
    groups: { g: { created: '2026-01-01T00:00:00Z', models: [{ name: 'a/b.c', targets: ['x/m1', 'y/m2'] }] } },
  });
  const resolve = (slug: string) =>
    slug === 'x' ? { slug, adapter: adapter({}), baseUrl: 'http://x' } : slug === 'y' ? { error: 'not_connected' as const, hint: 'connect y' } : { error: 'unknown_provider' as const, known: ['x', 'y'] };

  it('splits at the first slash', () => {
    expect(splitModelId('openrouter/meta-llama/llama-4')).toEqual({ provider: 'openrouter', model: 'meta-llama/llama-4' });
    expect(splitModelId('gpt-5')).toBeUndefined();
    expect(splitModelId('/x')).toBeUndefined();
    expect(splitModelId('x/')).toBeUndefined();
  });

  it('provider base: errors are thrown, with the codes of the issue', () => {
    expect(resolveTargets(config, undefined, 'x/m', resolve)).toEqual([expect.objectContaining({ label: 'x/m', model: 'm' })]);
    expect(() => resolveTargets(config, undefined, 'gpt', resolve)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_model' }));
    expect(() => resolveTargets(config, undefined, 'z/m', resolve)).toThrow(expect.objectContaining({ code: 'invalid_model', message: expect.stringContaining('x, y') }));
    expect(() => resolveTargets(config, undefined, 'y/m', resolve)).toThrow(expect.objectContaining({ code: 'provider_not_connected', message: 'connect y' }));
  });

  it('group base: ordered targets, unusable ones kept with their refusal', () => {
    const t = resolveTargets(config, 'g', 'a/b.c', resolve);
    expect(t.map((x) => [x.label, x.refusal?.code])).toEqual([
      ['x/m1', undefined],
      ['y/m2', 'provider_not_connected'],
    ]);
    expect(() => resolveTargets(config, 'g', 'nope', resolve)).toThrow(expect.objectContaining({ status: 404, code: 'model_not_found', message: expect.stringContaining('a/b.c') }));
    expect(() => resolveTargets(config, 'h', 'a/b.c', resolve)).toThrow(expect.objectContaining({ status: 404, code: 'group_not_found' }));
    expect(() => resolveTargets(config, 'constructor', 'a', resolve)).toThrow(expect.objectContaining({ code: 'group_not_found' }));
  });
});

describe('effort', () => {
  it('reads each dialect field, validates once, normalises minimal', () => {
    expect(readEffort({ reasoning_effort: 'minimal' }, 'chat')).toEqual({ effort: 'low', label: 'minimal' });
    expect(readEffort({ reasoning: { effort: 'high' } }, 'chat')).toEqual({ effort: 'high', label: 'high' });
    expect(readEffort({ reasoning: { enabled: false } }, 'chat').effort).toBe('none');
    expect(readEffort({ reasoning: { effort: 'xhigh' } }, 'responses').effort).toBe('xhigh');
    expect(readEffort({ output_config: { effort: 'max' } }, 'messages').effort).toBe('max');
    expect(readEffort({ reasoning_effort: 'low' }, 'messages').effort).toBe('low');
    expect(readEffort({ thinking: { type: 'enabled', budget_tokens: 2048 } }, 'messages')).toEqual({ label: 'thinking:enabled/2048' });
    expect(readEffort({}, 'chat')).toEqual({});
    for (const bad of ['ultra', 'HIGH', 3, true, {}]) {
      expect(() => readEffort({ reasoning_effort: bad }, 'chat')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_reasoning' }));
    }
  });

  it('lowering table per provider ceiling (never fails; null = as given)', () => {
    const asked = ['none', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
    const table = {
      anthropic: 'max',
      openai: 'xhigh',
      openrouter: 'xhigh',
      gemini: 'high',
      custom: null,
    } as const;
    const got = Object.fromEntries(Object.entries(table).map(([k, ceiling]) => [k, asked.map((e) => lowerEffort(e, ceiling))]));
    expect(got).toEqual({
      anthropic: ['none', 'low', 'medium', 'high', 'xhigh', 'max'],
      openai: ['none', 'low', 'medium', 'high', 'xhigh', 'xhigh'],
      openrouter: ['none', 'low', 'medium', 'high', 'xhigh', 'xhigh'],
      gemini: ['none', 'low', 'medium', 'high', 'high', 'high'],
      custom: ['none', 'low', 'medium', 'high', 'xhigh', 'max'],
    });
  });

  it('thinking budgets map to levels', () => {
    expect(effortFromThinking({ type: 'enabled', budget_tokens: 1024 })).toBe('low');
    expect(effortFromThinking({ type: 'enabled', budget_tokens: 4096 })).toBe('medium');
    expect(effortFromThinking({ type: 'enabled', budget_tokens: 16384 })).toBe('high');
    expect(effortFromThinking({ type: 'disabled' })).toBe('none');
    expect(effortFromThinking({ type: 'between_tools' })).toBe('none');
    expect(effortFromThinking({ type: 'adaptive' })).toBeUndefined();
  });
});

describe('policy', () => {
  it('modalities and hosted tools per adapter', () => {
    const audio = readFeatures({ messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'chat');
    const hosted = readFeatures({ tools: [{ type: 'function' }, { type: 'web_search' }, { type: 'web_search' }] }, 'responses');
    const server = readFeatures({ tools: [{ name: 'a' }, { type: 'web_search_20250305', name: 'web' }] }, 'messages');
    expect(hosted.hostedTools).toEqual(['web_search']);
    expect(policyRefusal(audio, adapter({ accepts: { inputAudio: false, hostedTools: false, webSearch: false, transcriptions: false } }), 'anthropic', 'chat')?.code).toBe('unsupported_modality');
    expect(policyRefusal(audio, adapter({}), 'gemini', 'chat')).toBeUndefined();
    expect(policyRefusal(hosted, adapter({}), 'gemini', 'responses')?.code).toBe('unsupported_feature');
    expect(policyRefusal(hosted, adapter({ accepts: { inputAudio: false, hostedTools: true, webSearch: true, transcriptions: false } }), 'openai', 'responses')).toBeUndefined();
    expect(policyRefusal(server, adapter({}), 'gemini', 'messages')?.code).toBe('unsupported_feature');
    expect(policyRefusal(server, adapter({ dialect: 'messages' }), 'cb', 'messages')).toBeUndefined();
  });
});

describe('tool names', () => {
  it('safe names stay, others become unique safe names of at most 64 chars', () => {
    expect(safeToolName('get_weather')).toBe('get_weather');
    const long = 'x'.repeat(100);
    expect(safeToolName(long)).toHaveLength(64);
    expect(safeToolName(long)).not.toBe(safeToolName(`${long}y`));
    expect(safeToolName('server.tool')).toMatch(/^server_tool_[0-9a-f]{8}$/);
    expect(safeToolName('server.tool')).not.toBe(safeToolName('server_tool'));
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (n) => {
        expect(safeToolName(n)).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      }),
    );
  });

  it('shortens definitions, choice and history; restores answers and stream events', () => {
    const long = `mcp__${'y'.repeat(80)}`;
    const hub: HubRequest = {
      model: 'm',
      system: [],
      stream: false,
      tools: [{ type: 'function', name: long }, { type: 'function', name: 'ok' }],
      toolChoice: { type: 'function', name: long },
      items: [{ type: 'function_call', callId: 'c1', name: long, arguments: '{}' }],
    };
    const map = shortenToolNames(hub)!;
    const short = safeToolName(long);
    expect(hub.tools.map((t) => (t.type === 'function' ? t.name : ''))).toEqual([short, 'ok']);
    expect(hub.toolChoice).toEqual({ type: 'function', name: short });
    expect((hub.items[0] as { name: string }).name).toBe(short);
    const res: HubResponse = { id: 'r', model: 'm', stopReason: 'tool_use', output: [{ type: 'function_call', callId: 'c2', name: short, arguments: '{}' }] };
    restoreResponseToolNames(res, map);
    expect((res.output[0] as { name: string }).name).toBe(long);
    const ev: HubEvent = { type: 'block_start', index: 0, block: { type: 'function_call', callId: 'c', name: short } };
    restoreEventToolName(ev, map);
    expect((ev as { block: { name: string } }).block.name).toBe(long);
    expect(shortenToolNames({ ...hub, tools: [], toolChoice: undefined, items: [] })).toBeUndefined();
  });
});

describe('redaction', () => {
  const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUv1234';
  it('removes the key and any 4+ char tail of it', () => {
    expect(redactSecret(`bad key ${key} given`, key)).toBe('bad key [REDACTED] given');
    expect(redactSecret('Incorrect API key provided: sk-proj-********1234.', key)).toBe('Incorrect API key provided: sk-proj-********[REDACTED].');
    expect(redactSecret('ends in Uv1234!', key)).toBe('ends in [REDACTED]!');
    expect(redactSecret('nothing 123 here', key)).toBe('nothing 123 here');
    expect(redactSecret('anything', undefined)).toBe('anything');
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 4, max: key.length }), fc.string(), (a, n, b) => {
        const out = redactSecret(a + key.slice(-n) + b, key);
        expect(out).not.toContain(key.slice(-4));
      }),
    );
  });

  it('masks a head of the secret, which is what a message truncated inside it keeps', () => {
    // the upstream echoed the key; its error text was cut at 200 characters, inside the key
    const secret = 'sk-ant-api03-AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHHIIIIJJJJ-tttt';
    const cut = `${'x'.repeat(100)} key=${secret}`.slice(0, 150) + '…';
    expect(redactSecret(cut, secret)).toBe(`${'x'.repeat(100)} key=[REDACTED]…`);
    expect(redactSecret('token customSecretToken0123456789abcd…', 'customSecretToken0123456789abcdefgh')).toBe('token [REDACTED]…');
    // any head four characters past the format's public prefix (sk-ant-api03-) goes; the prefix alone stays
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 17, max: secret.length }), fc.string(), (a, n, b) => {
        const out = redactSecret(a + secret.slice(0, n) + b, secret);
        expect(out).not.toContain(secret.slice(0, 17));
      }),
    );
    expect(redactSecret('keys look like sk-ant-api03-…', secret)).toBe('keys look like sk-ant-api03-…');
    expect(redactSecret('key sk-ant-api03-AAAA…', secret)).toBe('key [REDACTED]…');
    // through the error path: a text/plain 401 that echoes the key where the 200-character cut falls
    for (const at of [150, 185, 195]) {
      const body = Buffer.from(`${'p'.repeat(at)} key=${secret} rest`);
      const failure = upstreamFailure('cb', 401, body, 'text/plain', secret);
      expect(failure.message, String(at)).not.toContain(secret.slice(0, 17));
      expect(failure.message).not.toContain(secret.slice(-4));
    }
  });

  it('redactForLog stops at a depth cap, so a deeply nested body cannot overflow the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { a: [deep] };
    const out = JSON.stringify(redactForLog({ messages: deep }, key));
    expect(out).toContain('"[too deep]"');
    expect(out).not.toContain('leaf');
    expect(out.length).toBeLessThan(1000);
    // shallow bodies are whole, with the key masked
    expect(redactForLog({ a: [{ b: `x ${key}` }] }, key)).toEqual({ a: [{ b: 'x [REDACTED]' }] });
  });

  it('redactForLog keeps a "__proto__" member (JSON.parse makes it an own key) as a member, redacted, and the copy a plain object', () => {
    const body = JSON.parse(`{"tools":[{"parameters":{"__proto__":{"note":"x ${key}"}}}]}`) as unknown;
    const out = redactForLog(body, key) as { tools: Array<{ parameters: object }> };
    expect(Object.getPrototypeOf(out.tools[0]!.parameters)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"tools":[{"parameters":{"__proto__":{"note":"x [REDACTED]"}}}]}');
  });
});

describe('upstream error shapes', () => {
  const buf = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
  it('OpenAI, Anthropic, OpenRouter, Google (plain and wrapped), loose local shapes', () => {
    expect(upstreamFailure('openai', 400, buf({ error: { message: 'bad', type: 'invalid_request_error', param: 'input', code: 'x' } }), 'application/json', undefined)).toMatchObject({
      status: 400,
      code: 'upstream_error',
      message: 'openai: bad',
      param: 'input',
    });
    expect(upstreamFailure('anthropic', 529, buf({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), undefined, undefined).code).toBe('upstream_overloaded');
    expect(upstreamFailure('openrouter', 429, buf({ error: { code: 429, message: 'slow down' } }), undefined, undefined, '3')).toMatchObject({ code: 'upstream_rate_limited', retryAfter: '3' });
    expect(upstreamFailure('gemini', 400, buf([{ error: { code: 400, message: 'bad arg', status: 'INVALID_ARGUMENT' } }]), undefined, undefined).message).toBe('gemini: bad arg');
    expect(upstreamFailure('lm', 404, buf({ error: 'model "x" not found' }), undefined, undefined)).toMatchObject({ status: 404, code: 'upstream_not_found', message: 'lm: model "x" not found' });
    expect(upstreamFailure('v', 400, buf({ detail: 'nope' }), undefined, undefined).message).toBe('v: nope');
    expect(upstreamFailure('a', 401, buf({ error: { message: 'x' } }), undefined, undefined).code).toBe('upstream_auth_failed');
  });

  it('context-length errors are recognised across providers', () => {
    for (const body of [
      { error: { message: "This model's maximum context length is 128000 tokens.", code: 'context_length_exceeded' } },
      { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } },
      { error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } },
      // xAI (quoted in cline/cline#3120) and Moonshot (MoonshotAI/kimi-cli#2011, MoonshotAI-Cookbook#18)
      { code: 'Client specified an invalid argument', error: "This model's maximum prompt length is 131072 but the request contains 136973 tokens." },
      { error: { message: 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)', type: 'invalid_request_error' } },
      { error: { message: 'model max length exceeded, max length:8192', type: 'invalid_request_error' } },
    ]) {
      expect(upstreamFailure('p', 400, buf(body), undefined, undefined)).toMatchObject({ contextLength: true, code: 'context_length_exceeded' });
    }
    expect(upstreamFailure('p', 400, buf({ error: { message: 'max_tokens: 100000 > 64000, which is the maximum allowed' } }), undefined, undefined).contextLength).toBeUndefined();
  });

  it("a stream's final error event words a prompt over the context as Anthropic does for Messages clients (headers sent early)", () => {
    const err = { status: 400, code: 'context_length_exceeded', message: "lm: This model's maximum context length is 4096 tokens." };
    expect(finalErrorEvent('messages', err)).toContain('"message":"prompt is too long: lm: This model\'s maximum context length is 4096 tokens."');
    expect(finalErrorEvent('chat', err)).toContain('"message":"lm: This model');
  });

  it("a Responses stream's final error event: error, then response.failed when the stream announced its response", () => {
    const err = { status: 502, code: 'upstream_reset', message: 'openai: the upstream connection broke before the stream was complete' };
    expect(finalErrorEvent('responses', err, 7)).toBe(
      `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'upstream_reset', message: err.message, param: null, sequence_number: 7 })}\n\n`,
    );
    const announced = { id: 'resp_1', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-5.4', output: [], error: null, usage: null, incomplete_details: null };
    const text = finalErrorEvent('responses', err, 7, announced);
    const events = text.trimEnd().split('\n\n').map((e) => ({ name: e.slice(7, e.indexOf('\n')), data: JSON.parse(e.slice(e.indexOf('data: ') + 6)) as Record<string, unknown> }));
    expect(events.map((e) => e.name)).toEqual(['error', 'response.failed']);
    expect(events[1]!.data).toEqual({
      type: 'response.failed',
      sequence_number: 8,
      response: { ...announced, status: 'failed', error: { code: 'upstream_reset', message: err.message } },
    });
    // the announced response is not changed
    expect(announced.status).toBe('in_progress');
  });

  it('non-JSON bodies → 502 upstream_invalid_response; 2xx bodies map their implied status', () => {
    expect(upstreamFailure('p', 502, buf('<html><title>Bad Gateway</title></html>'), 'text/html', undefined)).toMatchObject({ status: 502, code: 'upstream_invalid_response', upstreamStatus: 502 });
    expect(upstreamFailure('p', 200, buf('not json'), 'application/json', undefined)).toMatchObject({ status: 502, upstreamStatus: 502 });
    // a 4xx page keeps its status (Cloudflare's 413 in front of Anthropic)
    expect(upstreamFailure('anthropic', 413, buf('<html><title>413 Request Entity Too Large</title></html>'), 'text/html', undefined)).toMatchObject({
      status: 413,
      code: 'upstream_request_too_large',
      message: 'anthropic: upstream answered HTTP 413 with an HTML page ("413 Request Entity Too Large")',
    });
    expect(upstreamFailure('p', 200, buf({ type: 'error', error: { type: 'rate_limit_error', message: 'x' } }), undefined, undefined).status).toBe(429);
    expect(isErrorBody({ error: { message: 'x' } })).toBe(true);
    expect(isErrorBody({ id: 'r', output: [], error: null })).toBe(false);
    expect(isErrorBody({ choices: [], error: { x: 1 } })).toBe(false);
    expect(isErrorBody([{ error: { code: 500 } }])).toBe(true);
  });

  it('stream error events per dialect', () => {
    expect(describeStreamError({ error: { message: 'boom', type: 'server_error' } }, 'chat')?.impliedStatus).toBe(500);
    expect(describeStreamError({ choices: [] }, 'chat')).toBeUndefined();
    expect(describeStreamError({ type: 'error', error: { type: 'overloaded_error', message: 'o' } }, 'messages')?.impliedStatus).toBe(529);
    expect(describeStreamError({ type: 'response.failed', response: { error: { code: 'rate_limit_exceeded', message: 'r' } } }, 'responses')?.impliedStatus).toBe(429);
    expect(describeStreamError({ type: 'response.created', response: { error: null } }, 'responses')).toBeUndefined();
  });
});

describe('fallback decision table', () => {
  it('moves on for provider-side failures, stays on request-caused 4xx except context length', () => {
    const table: Array<[number, boolean | undefined, boolean]> = [
      [0, undefined, true],
      [400, undefined, false],
      [400, true, true],
      [401, undefined, true],
      [402, undefined, true],
      [403, undefined, true],
      [404, undefined, true],
      [408, undefined, true],
      [409, undefined, true],
      [413, undefined, true],
      [422, undefined, false],
      [429, undefined, true],
      [500, undefined, true],
      [502, undefined, true],
      [503, undefined, true],
      [529, undefined, true],
    ];
    for (const [upstreamStatus, contextLength, expected] of table) {
      expect(shouldFallback(contextLength === undefined ? { upstreamStatus } : { upstreamStatus, contextLength }), `${upstreamStatus}/${contextLength}`).toBe(expected);
    }
  });

  it("stays on Anthropic's 404 for a thread it lost (the client replays it; no other target holds it)", () => {
    expect(shouldFallback({ upstreamStatus: 404, details: { error_code: 'thread_not_found' } })).toBe(false);
    expect(shouldFallback({ upstreamStatus: 404, details: { error_code: 'file_expired' } })).toBe(true);
  });
});

describe('reasoning cache and continuity', () => {
  it('is an LRU bounded by entries and bytes', () => {
    const c = new ReasoningCache(3, 10_000);
    for (const id of ['a', 'b', 'c']) c.set(id, { slug: 's', thoughtSignature: id });
    c.get('a'); // refresh a
    c.set('d', { slug: 's', thoughtSignature: 'd' });
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')?.thoughtSignature).toBe('a');
    expect(c.size).toBe(3);
    c.set('big', { slug: 's', thoughtSignature: 'x'.repeat(4000) });
    c.set('big2', { slug: 's', thoughtSignature: 'x'.repeat(4000) });
    expect(c.get('big')).toBeUndefined(); // evicted by bytes
    c.set('huge', { slug: 's', thoughtSignature: 'x'.repeat(20_000) }); // larger than the whole cache: not kept
    expect(c.get('huge')).toBeUndefined();
  });

  it("a scope (a service key) sees only its own entries, under the whole cache's bounds", () => {
    const c = new ReasoningCache(2, 10_000);
    const a = c.scope('key-a');
    const b = c.scope('key-b');
    expect(c.scope('key-a')).toBe(a); // one view per scope, not one per request
    a.set('call_1', { slug: 's', thoughtSignature: 'from-a' });
    expect(b.get('call_1')).toBeUndefined();
    expect(a.get('call_1')?.thoughtSignature).toBe('from-a');
    b.set('call_1', { slug: 's', thoughtSignature: 'from-b' });
    expect(a.get('call_1')?.thoughtSignature).toBe('from-a');
    expect(b.get('call_1')?.thoughtSignature).toBe('from-b');
    b.set('call_2', { slug: 's', thoughtSignature: 'x' }); // a third entry: the least recently used (a's) goes
    expect(a.get('call_1')).toBeUndefined();
    expect(b.get('call_1')?.thoughtSignature).toBe('from-b');
    expect(c.size).toBe(2);
  });

  it('remembers reasoning before calls and re-attaches it copy-on-write, only for the same provider', () => {
    const c = new ReasoningCache();
    rememberOutput(c, 'anthropic', [
      { type: 'reasoning', text: 'think', origin: { kind: 'anthropic', signature: 'sig' } },
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' },
    ], true);
    const items: HubRequest['items'] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'call_1', output: 'r' },
    ];
    const out = attachToHub(c, items, 'anthropic', true);
    expect(out).not.toBe(items);
    expect(out.map((i) => i.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    expect(items).toHaveLength(3);
    expect(attachToHub(c, items, 'cb', true)).toBe(items); // other provider: nothing
    expect(attachToHub(c, items, 'anthropic', false)).toBe(items); // client carries reasoning itself
  });

  it('a turn whose reasoning came back as bare text (reasoning_content) gets the cached, signed reasoning in its place', () => {
    const c = new ReasoningCache();
    const signed = { type: 'reasoning', text: 'think', origin: { kind: 'anthropic', signature: 'sig' } } as const;
    rememberOutput(c, 'anthropic', [signed, { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' }], true);
    const items: HubRequest['items'] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'reasoning', text: 'think', origin: { kind: 'unsigned' } },
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'call_1', output: 'r' },
    ];
    const out = attachToHub(c, items, 'anthropic', true);
    expect(out.map((i) => i.type)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
    expect(out[1]).toEqual(signed);
    expect(items[1]).toEqual({ type: 'reasoning', text: 'think', origin: { kind: 'unsigned' } }); // copy-on-write
    // another provider's turn keeps the client's text (DeepSeek and Kimi want it back as it is)
    expect(attachToHub(c, items, 'openrouter', true)).toBe(items);
    // a turn that carries its proof is left as it came
    const proven: HubRequest['items'] = [{ ...signed, origin: { kind: 'anthropic', signature: 'own' } }, items[2]!, items[3]!];
    expect(attachToHub(c, proven, 'anthropic', true)).toBe(proven);
  });

  it('a system message kept in place follows the item it stood before when cached reasoning changes a turn', () => {
    const c = new ReasoningCache();
    const cached = [
      { type: 'reasoning', text: 'one', origin: { kind: 'anthropic', signature: 's1' } },
      { type: 'reasoning', text: 'two', origin: { kind: 'anthropic', signature: 's2' } },
    ] as const;
    rememberOutput(c, 'anthropic', [...cached, { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' }], true);
    const user = (text: string): HubRequest['items'][number] => ({ type: 'message', role: 'user', content: [{ type: 'text', text }] });
    const items: HubRequest['items'] = [
      user('q'),
      { type: 'reasoning', text: 'one two', origin: { kind: 'unsigned' } },
      { type: 'function_call', callId: 'call_1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', callId: 'call_1', output: 'r' },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'done' }] },
      user('next'),
    ];
    const at = (beforeItem: number) => ({ text: `before ${beforeItem}`, inline: { beforeItem, role: 'system' as const } });
    const system: HubRequest['system'] = [{ text: 'lead' }, at(1), at(2), at(4), at(5), at(6)];
    const out = attachToRequest(c, { model: 'm', system, items, tools: [], stream: false }, 'anthropic', true);
    // q, one, two, f, r, done, next: each stands before the item it stood before (the turn's own reasoning gone)
    expect(out.items.map((i) => (i.type === 'reasoning' ? i.text : i.type))).toEqual(['message', 'one', 'two', 'function_call', 'function_call_output', 'message', 'message']);
    expect(out.system.map((p) => p.inline?.beforeItem)).toEqual([undefined, 1, 3, 5, 6, 7]);
    expect(system[2]!.inline!.beforeItem).toBe(2); // copy-on-write
    expect(attachToRequest(c, { model: 'm', system, items, tools: [], stream: false }, 'openrouter', true).system).toBe(system);
  });

  it('turns thinking off when the latest tool-use turn has no thinking block', () => {
    const body = {
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
      ],
    };
    expect(dropUnprovenThinking(body)).toBe(true);
    expect(body.thinking).toBeUndefined();
    expect(JSON.stringify(body.messages)).not.toContain('"thinking"');
    const ok = { thinking: { type: 'adaptive' }, messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: '', signature: 's' }, { type: 'tool_use' }] }] };
    expect(dropUnprovenThinking(ok)).toBe(false);
  });

  it('in passthrough, only manual thinking is sure to open each of Claude’s turns: adaptive turns go back as they came', () => {
    const toolTurn = () => [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
    ];
    const manual: Record<string, unknown> = { thinking: { type: 'enabled', budget_tokens: 2048 }, messages: toolTurn() };
    expect(dropUnprovenManualThinking(manual)).toBe(true);
    expect(manual.thinking).toBeUndefined();
    const adaptive: Record<string, unknown> = { thinking: { type: 'adaptive' }, messages: toolTurn() };
    expect(dropUnprovenManualThinking(adaptive)).toBe(false);
    expect(adaptive.thinking).toEqual({ type: 'adaptive' });
  });

  it('reads only the latest assistant turn of a conversation still unparsed', () => {
    const messages = [
      { role: 'user', content: 'x'.repeat(LAZY_MEMBER_BYTES) },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
    ];
    const raw = Buffer.from(JSON.stringify({ model: 'm', thinking: { type: 'enabled', budget_tokens: 2048 }, messages }));
    const body = lazyJsonBody(raw, scanTopLevelMembers(raw)!);
    expect(dropUnprovenManualThinking(body)).toBe(false);
    expect(unparsedMember(body, 'messages'), 'the conversation was not parsed').toBeDefined();
  });
});
