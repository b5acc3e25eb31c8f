import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configSchema, type Config } from '../../src/config/schema.js';
import { LocalDetector } from '../../src/providers/local-detect.js';
import { listFailureNotes } from '../../src/providers/model-list-failure.js';
import { createModelCatalog } from '../../src/providers/models.js';
import { StatedControls } from '../../src/providers/stated-controls.js';
import { closeUpstreamPools } from '../../src/providers/upstream-client.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Mock {
  url: string;
  hits: string[];
  headers: IncomingMessage['headers'][];
  handler: Handler;
  server: Server;
}

async function mock(handler: Handler): Promise<Mock> {
  const m: Mock = { url: '', hits: [], headers: [], handler, server: createServer((req, res) => {
    m.hits.push(req.url ?? '');
    m.headers.push(req.headers);
    m.handler(req, res);
  }) };
  await new Promise<void>((r) => m.server.listen(0, '127.0.0.1', r));
  const addr = m.server.address();
  m.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return m;
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

let anthropic: Mock, openai: Mock, openrouter: Mock, gemini: Mock, custom: Mock, local: Mock, ollama: Mock;
let openaiModels: string[];

beforeAll(async () => {
  anthropic = await mock((req, res) => {
    const after = new URL(req.url ?? '/', 'http://x').searchParams.get('after_id');
    if (!after) json(res, { data: [{ type: 'model', id: 'claude-opus-4-7', display_name: 'Claude Opus 4.7', created_at: '2026-04-01T00:00:00Z' }], has_more: true, first_id: 'claude-opus-4-7', last_id: 'claude-opus-4-7' });
    else json(res, { data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' }], has_more: false, last_id: 'claude-sonnet-4-5' });
  });
  openai = await mock((_req, res) => json(res, { object: 'list', data: openaiModels.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'openai' })) }));
  openrouter = await mock((_req, res) => {
    const t = setTimeout(() => json(res, { data: [{ id: 'meta-llama/llama-4', name: 'Llama 4' }] }), 5000);
    res.on('close', () => clearTimeout(t));
  });
  gemini = await mock((_req, res) => json(res, [{ error: { code: 500, message: 'boom', status: 'INTERNAL' } }], 500));
  custom = await mock((_req, res) => json(res, { object: 'list', data: [{ id: 'deepseek-chat', object: 'model' }] }));
  local = await mock((_req, res) => json(res, { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', created: 1 }] }));
  ollama = await mock((_req, res) => json(res, { object: 'list', data: [{ id: 'llama3.2:latest', object: 'model' }] }));
});

afterAll(async () => {
  await closeUpstreamPools(100);
  for (const m of [anthropic, openai, openrouter, gemini, custom, local, ollama]) {
    m.server.closeAllConnections();
    m.server.close();
  }
});

beforeEach(() => {
  openaiModels = ['gpt-5.4', 'text-embedding-3-small', 'tts-1', 'gpt-4.1'];
  for (const m of [anthropic, openai, openrouter, gemini, custom, local, ollama]) {
    m.hits.length = 0;
    m.headers.length = 0;
  }
});

function config(): Config {
  const created = '2026-01-01T00:00:00Z';
  return configSchema.parse({
    version: 2,
    providers: {
      anthropic: { baseUrl: anthropic.url },
      openai: { baseUrl: `${openai.url}/v1` },
      openrouter: { baseUrl: `${openrouter.url}/api/v1` },
      gemini: { baseUrl: `${gemini.url}/v1beta/openai` },
    },
    endpoints: { deepseek: { url: `${custom.url}/v1`, format: 'a', hasCredential: true, created } },
    locals: { box: { url: local.url, created } },
  });
}

const creds: Record<string, string> = { anthropic: 'sk-ant-x', openai: 'sk-oa-x', openrouter: 'sk-or-x', gemini: 'g-x', deepseek: 'ds-x' };

function detector(): LocalDetector {
  return new LocalDetector({ candidates: [{ slug: 'ollama', url: `${ollama.url}/v1`, label: 'Ollama' }], enabled: true });
}

describe('model catalog', () => {
  it('lists every connected provider live, prefixed; slow and failing providers leave the others listed', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: detector(), timeoutMs: 400 });
    const started = Date.now();
    const { models, failed } = await catalog.listing();
    expect(Date.now() - started).toBeLessThan(2500);
    expect(models.map((m) => m.id)).toEqual([
      'anthropic/claude-opus-4-7',
      'anthropic/claude-sonnet-4-5',
      'openai/gpt-5.4',
      'openai/gpt-4.1',
      'deepseek/deepseek-chat',
      'box/qwen3:8b',
      'ollama/llama3.2:latest',
    ]);
    expect(models[0]).toEqual({ id: 'anthropic/claude-opus-4-7', provider: 'anthropic', created: Date.parse('2026-04-01T00:00:00Z') / 1000, displayName: 'Claude Opus 4.7' });
    expect(models.find((m) => m.id === 'openai/gpt-5.4')).toMatchObject({ created: 1700000000, provider: 'openai' });

    // Anthropic: paginated with a limit, authenticated with its own headers.
    expect(anthropic.hits).toEqual(['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=claude-opus-4-7']);
    expect(anthropic.headers[0]!['x-api-key']).toBe('sk-ant-x');
    expect(anthropic.headers[0]!['anthropic-version']).toBe('2023-06-01');
    expect(openai.hits).toEqual(['/v1/models']);
    expect(openai.headers[0]!.authorization).toBe('Bearer sk-oa-x');
    expect(gemini.hits).toEqual(['/v1beta/openai/models']);
    expect(custom.headers[0]!.authorization).toBe('Bearer ds-x');
    // (a local list that states no window: Ollama's and LM Studio's own APIs are asked for the loaded context)
    expect(local.hits[0]).toBe('/v1/models');
    expect(local.hits.slice(1).sort()).toEqual(['/api/ps', '/api/v1/models']);
    expect(local.headers[0]!.authorization).toBeUndefined();
    // why the others are missing: the slow one ran out of time, the failing one answered 500
    expect(listFailureNotes(failed)).toEqual({
      openrouter: { code: 'upstream_timeout', reason: 'no answer within 400 ms' },
      gemini: { code: 'upstream_error', reason: 'the provider answered 500' },
    });
  });

  it('a listing names the failures of the providers asked: the status and code a client gets, the status the provider answered', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: detector(), timeoutMs: 400 });
    const { models, failed } = await catalog.listing();
    expect(models.map((m) => m.provider)).not.toContain('gemini');
    const byProvider = Object.fromEntries(failed.map((f) => [f.provider, f]));
    expect(byProvider).toEqual({
      openrouter: { provider: 'openrouter', reason: 'no answer within 400 ms', status: 504, code: 'upstream_timeout', upstreamStatus: 0, latencyMs: expect.any(Number) },
      gemini: { provider: 'gemini', reason: 'the provider answered 500', status: 500, code: 'upstream_error', upstreamStatus: 500, latencyMs: expect.any(Number) },
    });
    // each as long as its fetch took: the one that timed out waited its bound
    expect(byProvider.openrouter!.latencyMs).toBeGreaterThanOrEqual(390);
    // gemini's 500 came at once, not when the whole listing ended (the timed-out one's bound)
    expect(byProvider.gemini!.latencyMs).toBeLessThan(byProvider.openrouter!.latencyMs);
    // only the providers asked: a cached failure of another is not this listing's
    const one = await catalog.listing(undefined, new Set(['gemini', 'openai']));
    expect(one.failed.map((f) => f.provider)).toEqual(['gemini']);
    expect(one.models.map((m) => m.id)).toEqual(['openai/gpt-5.4', 'openai/gpt-4.1']);
  });

  it("OpenAI's models carry the window its model pages document (its list states none); the others stay unknown", async () => {
    openaiModels = ['gpt-5-mini-2025-08-07', 'gpt-5-pro', 'gpt-5.4', 'gpt-5.5'];
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 400 });
    const windows = Object.fromEntries((await catalog.list(undefined, new Set(['openai']))).map((m) => [m.id, m.contextWindow]));
    expect(windows).toEqual({ 'openai/gpt-5-mini-2025-08-07': 272_000, 'openai/gpt-5-pro': 128_000, 'openai/gpt-5.4': 922_000, 'openai/gpt-5.5': undefined });
  });

  it('serves from cache within the TTL', async () => {
    // openai alone, so the bound can be wide: with openrouter's 5 s answer in the listing a tight bound was needed, and
    // on a loaded machine openai's own fetch outran it and the list came back empty
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 10_000 });
    const onlyOpenai = new Set(['openai']);
    await catalog.list(undefined, onlyOpenai);
    const hits = openai.hits.length;
    expect(hits).toBeGreaterThan(0);
    const again = await catalog.list(undefined, onlyOpenai);
    expect(openai.hits.length).toBe(hits);
    expect(again.some((m) => m.id === 'openai/gpt-5.4')).toBe(true);
  });

  it('stale lists are served at once and refreshed in the background; a failing refresh keeps the last good list', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 300, ttlMs: 50, failureTtlMs: 50 });
    await catalog.list();
    openaiModels = ['gpt-6'];
    await new Promise((r) => setTimeout(r, 80));
    const stale = await catalog.list();
    expect(stale.some((m) => m.id === 'openai/gpt-5.4')).toBe(true); // served stale, refresh started
    // the background refresh lands when it lands: look until it has (list() serves from the cache)
    await vi.waitFor(async () => {
      const fresh = await catalog.list();
      expect(fresh.filter((m) => m.provider === 'openai').map((m) => m.id)).toEqual(['openai/gpt-6']);
    });

    const original = openai.handler;
    openai.handler = (_req, res) => json(res, { error: { message: 'down' } }, 503);
    try {
      await new Promise((r) => setTimeout(r, 80));
      await catalog.list(); // triggers the failing refresh
      await new Promise((r) => setTimeout(r, 100));
      const afterFailure = await catalog.list();
      expect(afterFailure.filter((m) => m.provider === 'openai').map((m) => m.id)).toEqual(['openai/gpt-6']);
    } finally {
      openai.handler = original;
    }
  });

  it('a slow provider does not slow down later lists', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 600 });
    await catalog.list();
    const asked = openrouter.hits.length;
    expect(asked).toBeGreaterThan(0);
    await catalog.list();
    // the slow provider is not asked (so not waited for) again: its timed-out answer is remembered
    expect(openrouter.hits.length).toBe(asked);
  });

  it('providers without a credential are neither listed nor asked', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => (s === 'openai' ? 'sk-oa-x' : undefined), detector: new LocalDetector({ enabled: false }), timeoutMs: 300 });
    const models = await catalog.list();
    expect(new Set(models.map((m) => m.provider))).toEqual(new Set(['openai', 'box']));
    expect(anthropic.hits).toEqual([]);
  });

  it('gemini ids lose their models/ prefix', async () => {
    const original = gemini.handler;
    gemini.handler = (_req, res) => json(res, { object: 'list', data: [{ id: 'models/gemini-2.5-flash', object: 'model' }, { id: 'models/text-embedding-004' }] });
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 300 });
      const models = await catalog.list();
      expect(models.filter((m) => m.provider === 'gemini').map((m) => m.id)).toEqual(['gemini/gemini-2.5-flash']);
    } finally {
      gemini.handler = original;
    }
  });

  it('gemini: windows from the native list (inputTokenLimit, every page, the key in x-goog-api-key); the compatible list says what is listed', async () => {
    const original = gemini.handler;
    gemini.handler = (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/v1beta/models') {
        const first = url.searchParams.get('pageToken') === null;
        return json(res, {
          models: first
            ? [{ name: 'models/gemini-2.5-flash', inputTokenLimit: 1048576, outputTokenLimit: 65536 }, { name: 'models/text-embedding-004', inputTokenLimit: 2048 }]
            : [{ name: 'models/gemma-3-27b-it', inputTokenLimit: 131072 }],
          ...(first ? { nextPageToken: 'p2' } : {}),
        });
      }
      json(res, { object: 'list', data: [{ id: 'models/gemini-2.5-flash' }, { id: 'models/gemma-3-27b-it' }, { id: 'models/gemini-new' }] });
    };
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const windows = Object.fromEntries((await catalog.list(undefined, new Set(['gemini']))).map((m) => [m.id, m.contextWindow]));
      expect(windows).toEqual({ 'gemini/gemini-2.5-flash': 1048576, 'gemini/gemma-3-27b-it': 131072, 'gemini/gemini-new': undefined });
      const native = gemini.hits.filter((h) => h.startsWith('/v1beta/models'));
      expect(native).toEqual(['/v1beta/models?pageSize=1000', '/v1beta/models?pageSize=1000&pageToken=p2']);
      const at = gemini.hits.indexOf(native[0]!);
      expect(gemini.headers[at]!['x-goog-api-key']).toBe(creds.gemini);
      expect(gemini.headers[at]!.authorization).toBeUndefined();
    } finally {
      gemini.handler = original;
    }
  });

  it('gemini: what the native list states — thinking only where true (a false one left out), output limits, no model it says cannot generateContent', async () => {
    const original = gemini.handler;
    const generates = ['generateContent', 'countTokens'];
    gemini.handler = (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/v1beta/models') {
        return json(res, {
          models: [
            { name: 'models/gemini-2.5-flash', inputTokenLimit: 1048576, outputTokenLimit: 65536, supportedGenerationMethods: generates, thinking: true },
            { name: 'models/gemini-2.0-flash', inputTokenLimit: 1048576, outputTokenLimit: 8192, supportedGenerationMethods: generates },
            // ids the id filter does not catch: the methods say what they are
            { name: 'models/gemini-vectors-2', inputTokenLimit: 2048, outputTokenLimit: 1, supportedGenerationMethods: ['embedContent', 'countTokens'] },
            { name: 'models/grounded-answers', inputTokenLimit: 7168, outputTokenLimit: 1024, supportedGenerationMethods: ['generateAnswer'] },
            { name: 'models/gemini-no-methods', inputTokenLimit: 32768 },
          ],
        });
      }
      json(res, { object: 'list', data: ['gemini-2.5-flash', 'gemini-2.0-flash', 'gemini-vectors-2', 'grounded-answers', 'gemini-no-methods', 'gemini-unlisted'].map((id) => ({ id: `models/${id}` })) });
    };
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const listed = await catalog.list(undefined, new Set(['gemini']));
      const facts = Object.fromEntries(listed.map((m) => [m.id, { window: m.contextWindow, maxOutput: m.maxOutput, reasons: m.reasons }]));
      expect(facts).toEqual({
        'gemini/gemini-2.5-flash': { window: 1048576, maxOutput: 65536, reasons: true },
        'gemini/gemini-2.0-flash': { window: 1048576, maxOutput: 8192, reasons: false },
        // listed natively without methods: kept; without `thinking` on a list that states it: does not think
        'gemini/gemini-no-methods': { window: 32768, maxOutput: undefined, reasons: false },
        // not on the native list: nothing known
        'gemini/gemini-unlisted': { window: undefined, maxOutput: undefined, reasons: undefined },
      });
    } finally {
      gemini.handler = original;
    }
  });

  it('gemini: a native list that never states `thinking` (a gateway’s, an older one) says nothing of reasoning; one that fails leaves the list as it is', async () => {
    const original = gemini.handler;
    let native: (res: ServerResponse) => void = (res) => json(res, { models: [{ name: 'models/gemini-2.0-flash', inputTokenLimit: 1048576, outputTokenLimit: 8192, supportedGenerationMethods: ['generateContent'] }] });
    gemini.handler = (req, res) => (new URL(req.url ?? '/', 'http://x').pathname === '/v1beta/models' ? native(res) : json(res, { object: 'list', data: [{ id: 'models/gemini-2.0-flash' }] }));
    try {
      const first = await createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 }).list(undefined, new Set(['gemini']));
      expect(first).toEqual([{ id: 'gemini/gemini-2.0-flash', provider: 'gemini', contextWindow: 1048576, maxOutput: 8192 }]);
      native = (res) => json(res, { error: { code: 403, message: 'denied', status: 'PERMISSION_DENIED' } }, 403);
      const second = await createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 }).list(undefined, new Set(['gemini']));
      expect(second).toEqual([{ id: 'gemini/gemini-2.0-flash', provider: 'gemini' }]);
    } finally {
      gemini.handler = original;
    }
  });

  it('keeps the context window a list states: max_input_tokens, context_length, max_model_len; llama.cpp’s from /props, not its trained length; Anthropic’s max_tokens as max output', async () => {
    const saved = [anthropic.handler, openrouter.handler, custom.handler, local.handler] as const;
    anthropic.handler = (_req, res) =>
      json(res, { data: [{ type: 'model', id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z', max_input_tokens: 200000, max_tokens: 64000 }], has_more: false });
    openrouter.handler = (_req, res) => json(res, { data: [{ id: 'z-ai/glm-4.6', name: 'GLM 4.6', context_length: 202752, top_provider: { context_length: 202752 } }, { id: 'x/none', context_length: null }] });
    // vLLM: what the server was started with
    custom.handler = (_req, res) => json(res, { object: 'list', data: [{ id: 'deepseek-chat', object: 'model', owned_by: 'vllm', max_model_len: 32768 }] });
    // llama.cpp: n_ctx_train is the trained length; the server's -c (per slot) is in /props
    let props: (res: ServerResponse) => void = (res) => json(res, { default_generation_settings: { n_ctx: 16384, params: { n_predict: -1 } }, total_slots: 1, model_path: '/models/qwen3-8b.gguf' });
    local.handler = (req, res) =>
      req.url === '/props' ? props(res) : json(res, { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', created: 1, owned_by: 'llamacpp', meta: { n_ctx_train: 262144, n_vocab: 151936 } }] });
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const listed = await catalog.list();
      const windows = Object.fromEntries(listed.map((m) => [m.id, m.contextWindow]));
      // Anthropic's max_tokens is the model's max output ("Maximum value for the max_tokens parameter")
      expect(listed.find((m) => m.id === 'anthropic/claude-sonnet-4-5')?.maxOutput).toBe(64000);
      expect(windows).toMatchObject({
        'anthropic/claude-sonnet-4-5': 200000,
        'openrouter/z-ai/glm-4.6': 202752,
        'openrouter/x/none': undefined,
        'deepseek/deepseek-chat': 32768,
        'box/qwen3:8b': 16384,
        'openai/gpt-5.4': 922_000,
      });
      expect(local.hits).toContain('/props');
      // a /props that fails leaves the list as it is, without a window
      props = (res) => json(res, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }, 404);
      const again = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      expect((await again.list(undefined, new Set(['box'])))[0]).toEqual({ id: 'box/qwen3:8b', provider: 'box', created: 1 });
    } finally {
      [anthropic.handler, openrouter.handler, custom.handler, local.handler] = saved;
    }
  });

  it('keeps what Anthropic’s list states a model reads and whether it thinks (capabilities: image_input, pdf_input, thinking); null or partial says nothing', async () => {
    const saved = anthropic.handler;
    const yes = (supported: boolean) => ({ supported });
    const model = (id: string, capabilities: unknown) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z', capabilities });
    anthropic.handler = (_req, res) =>
      json(res, {
        data: [
          model('claude-sonnet-4-5', { image_input: yes(true), pdf_input: yes(true), thinking: { supported: true, types: { enabled: yes(true) } }, citations: yes(true) }),
          model('claude-3-5-haiku-20241022', { image_input: yes(false), pdf_input: yes(false), thinking: { supported: false, types: { enabled: yes(false) } } }),
          model('claude-x-pdf-only', { image_input: yes(false), pdf_input: yes(true) }),
          model('claude-unstated', null),
          model('claude-partial', { image_input: yes(true), thinking: {} }),
        ],
        has_more: false,
      });
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const listed = await catalog.list(undefined, new Set(['anthropic']));
      const facts = Object.fromEntries(listed.map((m) => [m.id, { inputs: m.inputs, reasons: m.reasons, callsTools: m.callsTools }]));
      expect(facts).toEqual({
        'anthropic/claude-sonnet-4-5': { inputs: ['image', 'pdf'], reasons: true, callsTools: undefined },
        'anthropic/claude-3-5-haiku-20241022': { inputs: [], reasons: false, callsTools: undefined },
        'anthropic/claude-x-pdf-only': { inputs: ['pdf'], reasons: undefined, callsTools: undefined },
        'anthropic/claude-unstated': { inputs: undefined, reasons: undefined, callsTools: undefined },
        'anthropic/claude-partial': { inputs: undefined, reasons: undefined, callsTools: undefined },
      });
    } finally {
      anthropic.handler = saved;
    }
  });

  it('keeps the effort levels Anthropic’s list states (capabilities.effort: the levels supported; none when effort is not), and keeps them where requests read them', async () => {
    const saved = anthropic.handler;
    const yes = (supported: boolean) => ({ supported });
    const effort = (levels: string[], xhigh: unknown = yes(levels.includes('xhigh'))) => ({
      supported: levels.length > 0,
      low: yes(levels.includes('low')),
      medium: yes(levels.includes('medium')),
      high: yes(levels.includes('high')),
      max: yes(levels.includes('max')),
      xhigh,
    });
    const model = (id: string, capabilities: unknown) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z', capabilities });
    anthropic.handler = (_req, res) =>
      json(res, {
        data: [
          model('claude-opus-4-7', { effort: effort(['low', 'medium', 'high', 'xhigh', 'max']) }),
          model('claude-sonnet-4-6', { effort: effort(['low', 'medium', 'high'], null) }),
          model('claude-sonnet-4-5', { effort: effort([]) }),
          model('claude-partial', { effort: { supported: true, high: yes(true) } }),
          model('claude-unstated', null),
        ],
        has_more: false,
      });
    try {
      const stated = new StatedControls();
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000, stated });
      expect(stated.of('anthropic', 'claude-sonnet-4-6')?.efforts, 'nothing listed yet').toBeUndefined();
      const listed = await catalog.list(undefined, new Set(['anthropic']));
      expect(Object.fromEntries(listed.map((m) => [m.id, m.efforts]))).toEqual({
        'anthropic/claude-opus-4-7': ['low', 'medium', 'high', 'xhigh', 'max'],
        'anthropic/claude-sonnet-4-6': ['low', 'medium', 'high'],
        'anthropic/claude-sonnet-4-5': [],
        'anthropic/claude-partial': undefined,
        'anthropic/claude-unstated': undefined,
      });
      expect(stated.of('anthropic', 'claude-sonnet-4-6')?.efforts).toEqual(['low', 'medium', 'high']);
      expect(stated.of('anthropic', 'claude-sonnet-4-5')?.efforts).toEqual([]);
      expect(stated.of('anthropic', 'claude-unstated')?.efforts).toBeUndefined();
      expect(stated.of('openai', 'claude-sonnet-4-6')?.efforts).toBeUndefined();
    } finally {
      anthropic.handler = saved;
    }
  });

  it('keeps how Anthropic’s list states a model thinks (capabilities.thinking.types: adaptive before enabled, adaptive only where enabled is stated false; none where it does not think; whether it takes thinking off), and keeps it where requests read it', async () => {
    const saved = anthropic.handler;
    const yes = (supported: boolean) => ({ supported });
    const thinking = (supported: boolean, adaptive: boolean, enabled: boolean, disabled = true, betweenTools = false) => ({ supported, types: { adaptive: yes(adaptive), enabled: yes(enabled), disabled: yes(disabled), between_tools: yes(betweenTools) } });
    const model = (id: string, capabilities: unknown) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z', capabilities });
    anthropic.handler = (_req, res) =>
      json(res, {
        data: [
          model('claude-opus-4-7', { thinking: thinking(true, true, false) }),
          model('claude-fable-5', { thinking: thinking(true, true, false, false) }),
          model('claude-sonnet-4-6', { thinking: thinking(true, true, true) }),
          model('claude-haiku-4-5', { thinking: thinking(true, false, true, true, true) }),
          model('claude-3-5-haiku-20241022', { thinking: thinking(false, false, false) }),
          model('claude-no-types', { thinking: { supported: true } }),
          model('claude-unstated', null),
        ],
        has_more: false,
      });
    try {
      const stated = new StatedControls();
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000, stated });
      const listed = await catalog.list(undefined, new Set(['anthropic']));
      expect(Object.fromEntries(listed.map((m) => [m.id, m.thinking]))).toEqual({
        'anthropic/claude-opus-4-7': 'adaptive-only',
        'anthropic/claude-fable-5': 'adaptive-only',
        'anthropic/claude-sonnet-4-6': 'adaptive',
        'anthropic/claude-haiku-4-5': 'budget',
        'anthropic/claude-3-5-haiku-20241022': 'none',
        'anthropic/claude-no-types': undefined,
        'anthropic/claude-unstated': undefined,
      });
      // `between_tools` stated true of Haiku 4.5 only here
      expect(stated.of('anthropic', 'claude-haiku-4-5')).toEqual({ thinking: 'budget', refusesDisabled: false, refusesBetweenTools: false });
      expect(stated.of('anthropic', 'claude-opus-4-7')).toEqual({ thinking: 'adaptive-only', refusesDisabled: false, refusesBetweenTools: true });
      // `disabled` stated false: thinking off is refused
      expect(stated.of('anthropic', 'claude-fable-5')).toEqual({ thinking: 'adaptive-only', refusesDisabled: true, refusesBetweenTools: true });
      // `between_tools` stated false of a model that does not think is read too
      expect(stated.of('anthropic', 'claude-3-5-haiku-20241022')).toEqual({ thinking: 'none', refusesBetweenTools: true });
      expect(stated.of('anthropic', 'claude-no-types')).toBeUndefined();
    } finally {
      anthropic.handler = saved;
    }
  });

  it('keeps what OpenRouter’s list states a model reads (image; file = PDF), whether it reasons and calls tools (reasoning, tools among supported_parameters)', async () => {
    const saved = openrouter.handler;
    openrouter.handler = (_req, res) =>
      json(res, {
        data: [
          { id: 'anthropic/claude-sonnet-4.5', architecture: { input_modalities: ['file', 'image', 'text'] }, supported_parameters: ['tools', 'reasoning'] },
          { id: 'qwen/qwen3-coder', architecture: { input_modalities: ['text'] }, supported_parameters: ['tools'] },
          { id: 'x/audio', architecture: { input_modalities: ['text', 'audio'] } },
          { id: 'x/unstated' },
          { id: 'x/odd', architecture: { input_modalities: 'text+image' }, supported_parameters: null },
        ],
      });
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const listed = await catalog.list(undefined, new Set(['openrouter']));
      const facts = Object.fromEntries(listed.map((m) => [m.id, { inputs: m.inputs, reasons: m.reasons, callsTools: m.callsTools }]));
      expect(facts).toEqual({
        'openrouter/anthropic/claude-sonnet-4.5': { inputs: ['image', 'pdf'], reasons: true, callsTools: true },
        'openrouter/qwen/qwen3-coder': { inputs: [], reasons: false, callsTools: true },
        'openrouter/x/audio': { inputs: [], reasons: undefined, callsTools: undefined },
        'openrouter/x/unstated': { inputs: undefined, reasons: undefined, callsTools: undefined },
        'openrouter/x/odd': { inputs: undefined, reasons: undefined, callsTools: undefined },
      });
    } finally {
      openrouter.handler = saved;
    }
  });

  it('Ollama: a loaded model’s context from /api/ps, one not loaded from its Modelfile’s num_ctx, else none (not the trained length)', async () => {
    const saved = local.handler;
    const shown: unknown[] = [];
    local.handler = (req, res) => {
      if (req.url === '/api/ps') return json(res, { models: [{ name: 'qwen3:8b', model: 'qwen3:8b', size: 1, context_length: 8192, size_vram: 1 }] });
      if (req.url === '/api/v1/models') return json(res, { error: '404 page not found' }, 404);
      if (req.url === '/api/show') {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          const { model } = JSON.parse(body) as { model: string };
          shown.push(model);
          json(res, {
            parameters: model === 'qwen2.5-coder:32k' ? 'num_ctx                        32768\nstop                           "<|im_end|>"' : 'stop "<|eot_id|>"',
            model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 131072 },
          });
        });
        return;
      }
      json(res, { object: 'list', data: ['qwen3:8b', 'qwen2.5-coder:32k', 'llama3.2:latest'].map((id) => ({ id, object: 'model', created: 1, owned_by: 'library' })) });
    };
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const windows = Object.fromEntries((await catalog.list(undefined, new Set(['box']))).map((m) => [m.id, m.contextWindow]));
      expect(windows).toEqual({ 'box/qwen3:8b': 8192, 'box/qwen2.5-coder:32k': 32768, 'box/llama3.2:latest': undefined });
      // the loaded one is not asked for its Modelfile
      expect(shown.sort()).toEqual(['llama3.2:latest', 'qwen2.5-coder:32k']);
    } finally {
      local.handler = saved;
    }
  });

  it('a local server that never answers for the windows still has its list, without them, well before the list’s own bound', async () => {
    const saved = local.handler;
    local.handler = (req, res) => {
      if (req.url?.startsWith('/api/')) return; // held: never answered
      json(res, { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', created: 1 }] });
    };
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 6000 });
      const started = Date.now();
      const { models, failed } = await catalog.listing(undefined, new Set(['box']));
      expect(models).toEqual([{ id: 'box/qwen3:8b', provider: 'box', created: 1 }]);
      expect(failed).toEqual([]);
      // the lookups have 1.5 s of their own; the list's 6 s bound is never reached
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      local.handler = saved;
      local.server.closeAllConnections();
    }
  });

  it('LM Studio: a loaded model’s context from /api/v1/models (the smallest of its instances); one not loaded has none, not its maximum', async () => {
    const saved = local.handler;
    local.handler = (req, res) => {
      if (req.url === '/api/ps') return json(res, { error: 'Unexpected endpoint or method. (GET /api/ps)' }, 200);
      if (req.url === '/api/v1/models') {
        return json(res, {
          models: [
            { type: 'llm', key: 'qwen3-coder-30b', loaded_instances: [{ id: 'a', config: { context_length: 16384 } }, { id: 'b', config: { context_length: 12000 } }], max_context_length: 262144 },
            { type: 'llm', key: 'gemma-3-12b', loaded_instances: [], max_context_length: 131072 },
          ],
        });
      }
      json(res, { object: 'list', data: ['qwen3-coder-30b', 'gemma-3-12b'].map((id) => ({ id, object: 'model', owned_by: 'organization_owner' })) });
    };
    try {
      const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      const windows = Object.fromEntries((await catalog.list(undefined, new Set(['box']))).map((m) => [m.id, m.contextWindow]));
      expect(windows).toEqual({ 'box/qwen3-coder-30b': 12000, 'box/gemma-3-12b': undefined });
    } finally {
      local.handler = saved;
    }
  });

  it('a list of some providers asks only those, and leaves the others cached', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 300 });
    await catalog.list();
    for (const m of [anthropic, openai, custom, local]) m.hits.length = 0;
    expect((await catalog.list(undefined, new Set(['deepseek', 'box']))).map((m) => m.id)).toEqual(['deepseek/deepseek-chat', 'box/qwen3:8b']);
    expect(anthropic.hits).toEqual([]);
    expect(openai.hits).toEqual([]);
    // the others' lists were not dropped: a full list within the TTL asks no one
    expect((await catalog.list()).map((m) => m.provider)).toContain('anthropic');
    expect(anthropic.hits).toEqual([]);
  });

  /** The ids listed for deepseek when its list is `data` and its credential `secret`. */
  async function listedWith(secret: string, data: readonly object[]): Promise<string[]> {
    const saved = custom.handler;
    custom.handler = (_req, res) => json(res, { object: 'list', data });
    try {
      const catalog = createModelCatalog({ config, credential: (s) => (s === 'deepseek' ? secret : creds[s]), detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
      return (await catalog.list(undefined, new Set(['deepseek']))).map((m) => m.id);
    } finally {
      custom.handler = saved;
    }
  }

  it('drops an entry whose id or name would hand a key to every client: the credential, a service key, a provider key', async () => {
    const secret = 'ds-secret-credential-0123456789';
    const listed = await listedWith(secret, [
      { id: 'deepseek-chat' },
      { id: `proxy?key=${secret}` },
      { id: 'named', name: `for ${secret}` },
      { id: 'sk-svc-proxy-3kTQm8VdPa1xZr9yLw2bNc5Hj7Fe4Gs6AbCdEfGhIjK' },
      { id: 'leaked', name: 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz' },
      { id: 'none' },
    ]);
    expect(listed).toEqual(['deepseek/deepseek-chat', 'deepseek/none']);
  });

  it('drops an entry holding the credential as JSON escapes it (a gateway putting its request config in an id): \\", \\\\, \\/', async () => {
    const secret = 'ds-quo"ted\\and/slash-0123456789';
    const listed = await listedWith(secret, [
      { id: 'deepseek-chat' },
      { id: `gw:${JSON.stringify({ key: secret })}` },
      { id: 'named', name: `cfg ${JSON.stringify(secret).replaceAll('/', '\\/')}` },
      { id: 'quoted-twice', name: JSON.stringify(JSON.stringify({ key: secret })) },
      { id: 'none' },
    ]);
    expect(listed).toEqual(['deepseek/deepseek-chat', 'deepseek/none']);
  });

  it('an answer that is no list is a bad gateway, whatever its status: a redirect, JSON that is not an object, a refused key', async () => {
    const saved = custom.handler;
    const redirected = (to?: string) => `the provider answered with a redirect (HTTP 302${to ? ` to ${to}` : ''}), which svc-proxy does not follow. Check the provider's base URL, or sign in to the gateway in front of it.`;
    const answers: Array<[Handler, { status: number; code: string; upstreamStatus: number; reason: string }]> = [
      // a redirect is named as a generation's is: where it pointed, its origin only (no user info, path or query)
      [(_req, res) => res.writeHead(302, { location: 'https://sso:pw@login.example/sign-in?token=t0k' }).end(), { status: 502, code: 'upstream_redirect', upstreamStatus: 302, reason: redirected('https://login.example') }],
      [(_req, res) => res.writeHead(302, { location: '/elsewhere' }).end(), { status: 502, code: 'upstream_redirect', upstreamStatus: 302, reason: redirected() }],
      [(_req, res) => json(res, 42), { status: 502, code: 'upstream_invalid_response', upstreamStatus: 502, reason: 'the answer was not a JSON object' }],
      [(_req, res) => json(res, { error: 'forbidden' }, 403), { status: 403, code: 'upstream_auth_failed', upstreamStatus: 403, reason: 'the provider refused the credential (403)' }],
    ];
    try {
      for (const [handler, expected] of answers) {
        custom.handler = handler;
        const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 1000 });
        const { failed } = await catalog.listing(undefined, new Set(['deepseek']));
        expect(failed).toEqual([{ provider: 'deepseek', ...expected, latencyMs: expect.any(Number) }]);
      }
    } finally {
      custom.handler = saved;
    }
  });

  it('an aborted list rejects promptly', async () => {
    const catalog = createModelCatalog({ config, credential: (s) => creds[s], detector: new LocalDetector({ enabled: false }), timeoutMs: 2000 });
    const ac = new AbortController();
    const p = catalog.list(ac.signal);
    setTimeout(() => ac.abort(new Error('client left')), 50);
    // the abort's reason, not the 2 s timeout's error: the abort ended it
    await expect(p).rejects.toThrow('client left');
  });
});
