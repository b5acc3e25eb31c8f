import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, type Config } from '../../src/config/schema.js';
import { LocalDetector } from '../../src/providers/local-detect.js';
import { WELL_KNOWN_LOCALS } from '../../src/providers/well-known-locals.js';
import { createModelCatalog } from '../../src/providers/models.js';
import { isResolveFailure, knownProviderSlugs, resolveProvider } from '../../src/providers/registry.js';
import { closeUpstreamPools } from '../../src/providers/upstream-client.js';
import { checkNewUpstream } from '../../src/secrets/operations.js';
import type { ResolvedProvider } from '../../src/providers/types.js';
import { closedPortUrl } from '../fixtures/ports.js';

function config(extra: Record<string, unknown> = {}): Config {
  return configSchema.parse({ version: 2, ...extra });
}

const created = '2026-01-01T00:00:00Z';
const noDetect = new LocalDetector({ enabled: false });

function resolved(r: ReturnType<typeof resolveProvider>): ResolvedProvider {
  if (isResolveFailure(r)) throw new Error(`expected a provider, got ${JSON.stringify(r)}`);
  return r;
}

describe('resolveProvider: built-ins', () => {
  const creds: Record<string, string> = { anthropic: 'sk-ant', openai: 'sk-oa', openrouter: 'sk-or', gemini: 'g-key' };
  const deps = (cfg: Config, c: Record<string, string> = creds) => ({ config: () => cfg, credential: (s: string) => c[s], detector: noDetect });

  it('default base URLs and credentials', () => {
    const cfg = config();
    expect(resolved(resolveProvider('anthropic', deps(cfg)))).toMatchObject({ slug: 'anthropic', baseUrl: 'https://api.anthropic.com', credential: 'sk-ant' });
    expect(resolved(resolveProvider('openai', deps(cfg))).baseUrl).toBe('https://api.openai.com/v1');
    expect(resolved(resolveProvider('openrouter', deps(cfg))).baseUrl).toBe('https://openrouter.ai/api/v1');
    expect(resolved(resolveProvider('gemini', deps(cfg))).baseUrl).toBe('https://generativelanguage.googleapis.com/v1beta/openai');
    expect(resolved(resolveProvider('gemini', deps(cfg))).adapter.kind).toBe('gemini');
  });

  it('base URL overrides are normalised per adapter', () => {
    const cfg = config({ providers: { anthropic: { baseUrl: 'http://127.0.0.1:9999/v1/' }, openai: { baseUrl: 'http://127.0.0.1:9998/v1/' } } });
    expect(resolved(resolveProvider('anthropic', deps(cfg))).baseUrl).toBe('http://127.0.0.1:9999');
    expect(resolved(resolveProvider('openai', deps(cfg))).baseUrl).toBe('http://127.0.0.1:9998/v1');
  });

  it('no credential → not_connected with the connect command and env var', () => {
    const r = resolveProvider('openrouter', deps(config(), {}));
    expect(r).toEqual({ error: 'not_connected', hint: expect.stringContaining('`svc-proxy provider connect openrouter`') });
    expect((r as { hint: string }).hint).toContain('OPENROUTER_API_KEY');
    expect((resolveProvider('gemini', deps(config(), {})) as { hint: string }).hint).toContain('GEMINI_API_KEY');
  });

  it('disabled → not_connected saying so', () => {
    const r = resolveProvider('openai', deps(config({ providers: { openai: { enabled: false } } })));
    expect(r).toMatchObject({ error: 'not_connected' });
    expect((r as { hint: string }).hint).toContain('disabled');
  });
});

describe('resolveProvider: endpoints and locals', () => {
  const cfg = config({
    endpoints: {
      deepseek: { url: 'https://api.deepseek.com/v1/', format: 'a', hasCredential: true, created },
      kimi: { url: 'https://api.moonshot.ai/anthropic/', format: 'b', hasCredential: true, created },
      open: { url: 'http://127.0.0.1:7000/v1', format: 'a', hasCredential: false, created },
    },
    locals: { box: { url: 'http://127.0.0.1:11434', created } },
  });

  it('format a → custom chat, format b → custom messages, with credentials', () => {
    const d = { config: () => cfg, credential: (s: string) => ({ deepseek: 'ds', kimi: 'km' })[s], detector: noDetect };
    expect(resolved(resolveProvider('deepseek', d))).toMatchObject({ baseUrl: 'https://api.deepseek.com/v1', credential: 'ds' });
    expect(resolved(resolveProvider('deepseek', d)).adapter.kind).toBe('custom-a');
    expect(resolved(resolveProvider('kimi', d))).toMatchObject({ baseUrl: 'https://api.moonshot.ai/anthropic', credential: 'km' });
    expect(resolved(resolveProvider('kimi', d)).adapter.kind).toBe('custom-b');
    const open = resolved(resolveProvider('open', d));
    expect(open.credential).toBeUndefined();
  });

  it('an endpoint whose stored credential is missing → not_connected with the commands that add it again: remove first, as add refuses a taken slug', () => {
    const r = resolveProvider('kimi', { config: () => cfg, credential: () => undefined, detector: noDetect });
    expect(r).toEqual({
      error: 'not_connected',
      hint: 'The credential of endpoint "kimi" is missing from the keychain. Add the endpoint again: `svc-proxy endpoint remove kimi`, then `svc-proxy endpoint add kimi --url https://api.moonshot.ai/anthropic/ --format b` with its key.',
    });
    // why the remove: an add of the slug as it stands is refused
    expect(() => checkNewUpstream('kimi', 'https://api.moonshot.ai/anthropic/', { endpoints: Object.keys(cfg.endpoints), locals: [] })).toThrow(/already exists/);
  });

  it('the re-add keeps the header the key goes in and the fixed headers, quoted for the shell where they need it', () => {
    const gateway = config({
      endpoints: { azure: { url: 'https://gw.example/openai/v1?api-version=2025-01-01', format: 'a', hasCredential: true, created, authHeader: 'api-key', headers: { 'x-team': "ops & dev's" } } },
    });
    const r = resolveProvider('azure', { config: () => gateway, credential: () => undefined, detector: noDetect });
    expect((r as { hint: string }).hint).toContain(
      "`svc-proxy endpoint add azure --url 'https://gw.example/openai/v1?api-version=2025-01-01' --format a --auth-header api-key --header 'x-team=ops & dev'\\''s'` with its key.",
    );
  });

  it('the re-add hint, which clients and the log see, masks a credential a hand-edited config holds in the URL or a fixed header', () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz012345';
    const leaky = config({
      endpoints: { gw: { url: `https://me:hunter22@gw.example/v1?key=${key}&team=ops`, format: 'a', hasCredential: true, created, headers: { 'x-auth-token': 'tok-123456', 'x-note': `k ${key}`, 'x-team': 'ops' } } },
    });
    const r = resolveProvider('gw', { config: () => leaky, credential: () => undefined, detector: noDetect });
    const hint = (r as { hint: string }).hint;
    for (const secret of [key, 'hunter22', 'tok-123456']) expect(hint).not.toContain(secret);
    expect(hint).toContain("`svc-proxy endpoint add gw --url 'https://***@gw.example/v1?key=***&team=ops' --format a --header 'x-auth-token=***' --header 'x-note=***' --header x-team=ops` with its key.");
  });

  it('an endpoint whose stored credential is unusable → provider_credential_invalid with the problem and the re-add command', () => {
    const problem = 'the credential of kimi stored in the OS keychain is wrapped in quotes (give the key without them); it is not used: add the endpoint again with a usable key.';
    const r = resolveProvider('kimi', { config: () => cfg, credential: () => undefined, credentialProblem: (s: string) => (s === 'kimi' ? problem : undefined), detector: noDetect });
    expect(r).toEqual({
      error: 'not_connected',
      code: 'provider_credential_invalid',
      hint: `Endpoint "kimi" cannot be used: ${problem} \`svc-proxy endpoint remove kimi\`, then \`svc-proxy endpoint add kimi --url https://api.moonshot.ai/anthropic/ --format b\` with its key.`,
    });
  });

  it('local servers: no credential, root URL gets /v1', () => {
    const r = resolved(resolveProvider('box', { config: () => cfg, credential: () => 'never-used', detector: noDetect }));
    expect(r).toMatchObject({ slug: 'box', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(r.credential).toBeUndefined();
    expect(r.adapter.kind).toBe('local');
  });

  it('unknown → the known slugs', () => {
    const r = resolveProvider('nope', { config: () => cfg, credential: () => undefined, detector: noDetect });
    expect(r).toEqual({ error: 'unknown_provider', known: ['anthropic', 'openai', 'openrouter', 'gemini', 'deepseek', 'kimi', 'open', 'box'] });
    expect(knownProviderSlugs(cfg, noDetect)).toEqual(['anthropic', 'openai', 'openrouter', 'gemini', 'deepseek', 'kimi', 'open', 'box']);
  });
});

describe('resolveProvider: detected local servers', () => {
  let server: Server;
  let liveUrl: string;
  let deadUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2:latest', object: 'model' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    liveUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/v1`;
    deadUrl = await closedPortUrl('/v1');
  });
  afterAll(async () => {
    server.close();
    await closeUpstreamPools();
  });

  function detector() {
    return new LocalDetector({
      candidates: [
        { slug: 'ollama', url: liveUrl, label: 'Ollama' },
        { slug: 'lmstudio', url: deadUrl, label: 'LM Studio' },
      ],
      enabled: true,
    });
  }

  it('detected servers resolve, silent ones say how to fix it, unprobed ones are tried', async () => {
    const det = detector();
    const d = { config: () => config(), credential: () => undefined, detector: det };
    // Never probed yet: resolves optimistically to the well-known address.
    expect(resolved(resolveProvider('lmstudio', d)).baseUrl).toBe(deadUrl);
    const found = await det.detect();
    expect(found.map((c) => c.slug)).toEqual(['ollama']);
    expect(resolved(resolveProvider('ollama', d))).toMatchObject({ slug: 'ollama', baseUrl: liveUrl });
    const silent = resolveProvider('lmstudio', d);
    expect(silent).toMatchObject({ error: 'not_connected' });
    expect((silent as { hint: string }).hint).toContain('LM Studio does not answer');
    expect((silent as { hint: string }).hint).toContain(': is it running? Start it, or add a local server');
    expect(knownProviderSlugs(config(), det)).toContain('ollama');
    expect(knownProviderSlugs(config(), det)).not.toContain('lmstudio');
  });

  it('a well-known server that did not answer: the hint says how to start it (Ollama, LM Studio)', async () => {
    // the real candidates' wording, at an address where nothing listens (not the machine's own 11434/1234)
    const det = new LocalDetector({ candidates: WELL_KNOWN_LOCALS.map((c) => ({ ...c, url: deadUrl })), enabled: true });
    await det.detect();
    const d = { config: () => config(), credential: () => undefined, detector: det };
    expect(resolveProvider('ollama', d)).toEqual({
      error: 'not_connected',
      hint: `Ollama does not answer at ${deadUrl}: is it running? Start it with \`ollama serve\`, or add a local server with \`svc-proxy local add <slug> --url <url>\`.`,
    });
    expect((resolveProvider('lmstudio', d) as { hint: string }).hint).toBe(
      `LM Studio does not answer at ${deadUrl}: is it running? Start it in the app or with \`lms server start\`, or add a local server with \`svc-proxy local add <slug> --url <url>\`.`,
    );
  });

  it('a stale "nothing answered" does not stop a later attempt: the server started since is tried', async () => {
    // Ollama was not running at the last probe; it is now, and that result is past its time
    const det = new LocalDetector({ candidates: [{ slug: 'ollama', url: deadUrl, label: 'Ollama' }], enabled: true, missTtlMs: 20 });
    await det.detect();
    const d = { config: () => config(), credential: () => undefined, detector: det };
    expect(resolveProvider('ollama', d), 'fresh: said so').toMatchObject({ error: 'not_connected' });
    await new Promise((r) => setTimeout(r, 40));
    expect(det.snapshot()).toMatchObject({ found: [], stale: true });
    expect(resolved(resolveProvider('ollama', d))).toMatchObject({ slug: 'ollama', baseUrl: deadUrl });
  });

  it('the model list waits for a new probe when the last one found nothing and is stale', async () => {
    let url = deadUrl;
    const det = new LocalDetector({ candidates: [{ slug: 'ollama', get url() { return url; }, label: 'Ollama' }], enabled: true, missTtlMs: 20 });
    const catalog = createModelCatalog({ config: () => config(), credential: () => undefined, detector: det, timeoutMs: 400 });
    expect((await catalog.list()).map((m) => m.id)).toEqual([]);
    url = liveUrl; // Ollama started
    await new Promise((r) => setTimeout(r, 40));
    expect((await catalog.list()).map((m) => m.id)).toEqual(['ollama/llama3.2:latest']);
  });

  it('a server added by hand at the same address is not listed twice', async () => {
    const det = detector();
    await det.detect();
    const cfg = config({ locals: { mine: { url: liveUrl.replace('127.0.0.1', 'localhost'), created } } });
    expect(knownProviderSlugs(cfg, det)).toEqual(['anthropic', 'openai', 'openrouter', 'gemini', 'mine']);
  });

  it('a configured local named ollama wins over detection', async () => {
    const det = detector();
    await det.detect();
    const cfg = config({ locals: { ollama: { url: 'http://10.0.0.5:11434', created } } });
    expect(resolved(resolveProvider('ollama', { config: () => cfg, credential: () => undefined, detector: det })).baseUrl).toBe('http://10.0.0.5:11434/v1');
  });

  it('the probe is quick even when a server never answers', async () => {
    const hang = createServer(() => undefined);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const addr = hang.address();
    const det = new LocalDetector({ candidates: [{ slug: 'ollama', url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/v1`, label: 'Ollama' }], enabled: true });
    const started = Date.now();
    expect(await det.detect()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
    hang.closeAllConnections();
    hang.close();
  });
});
