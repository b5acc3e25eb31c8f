import { describe, expect, it } from 'vitest';
import { checkProxyUrl } from '../../src/config/proxy-url.js';
import { settingsSchema } from '../../src/config/schema.js';
import { DIRECT_PLAN, parseNoProxy, proxyFor, proxyPlan, proxyStatus, proxyStatusLines, shellProxyDiffers } from '../../src/providers/upstream-proxy.js';

const ENV = { upstreamProxy: 'env', noProxy: [] as string[] };

describe('the outbound proxy plan', () => {
  it('reads https_proxy/HTTPS_PROXY for https origins and http_proxy/HTTP_PROXY for http ones, lower case first', () => {
    const plan = proxyPlan(ENV, { HTTPS_PROXY: 'http://upper:3128', https_proxy: 'http://lower:3128', HTTP_PROXY: 'http://plain:8080' });
    expect(proxyFor(plan, 'https://api.anthropic.com')).toEqual({ url: 'http://lower:3128/', source: 'https_proxy' });
    expect(proxyFor(plan, 'http://models.example:8000')).toEqual({ url: 'http://plain:8080/', source: 'HTTP_PROXY' });
    const httpsOnly = proxyPlan(ENV, { HTTPS_PROXY: 'proxy.corp:3128' });
    expect(proxyFor(httpsOnly, 'https://api.openai.com')).toEqual({ url: 'http://proxy.corp:3128/', source: 'HTTPS_PROXY' });
    expect(proxyFor(httpsOnly, 'http://gpu-box:8000')).toBeUndefined();
  });

  it('is direct without proxy variables, with "none", and for loopback whatever is set', () => {
    expect(proxyPlan(ENV, { NO_PROXY: 'example.com' })).toBe(DIRECT_PLAN);
    expect(proxyPlan({ upstreamProxy: 'none', noProxy: [] }, { HTTPS_PROXY: 'http://p:1' })).toBe(DIRECT_PLAN);
    const plan = proxyPlan(ENV, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1' });
    for (const origin of ['http://127.0.0.1:11434', 'http://localhost:1234', 'https://[::1]:8443', 'http://127.8.9.10', 'http://ollama.localhost:11434']) {
      expect(proxyFor(plan, origin), origin).toBeUndefined();
    }
    expect(proxyFor(plan, 'http://192.168.1.20:11434')).toBeDefined();
  });

  it('takes a URL in settings.upstreamProxy for both schemes, with settings.noProxy', () => {
    const plan = proxyPlan({ upstreamProxy: 'http://gate.corp:8080', noProxy: ['internal.corp'] }, { HTTPS_PROXY: 'http://ignored:1', NO_PROXY: 'api.openai.com' });
    expect(proxyFor(plan, 'https://api.openai.com')).toEqual({ url: 'http://gate.corp:8080/', source: 'settings.upstreamProxy' });
    expect(proxyFor(plan, 'http://llm.internal.corp')).toBeUndefined();
  });

  it('adds settings.noProxy to NO_PROXY in "env" mode', () => {
    const plan = proxyPlan({ upstreamProxy: 'env', noProxy: ['vllm.lab'] }, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: '.corp' });
    expect(proxyFor(plan, 'http://vllm.lab:8000')).toBeUndefined();
    expect(proxyFor(plan, 'https://git.corp')).toBeUndefined();
    expect(proxyStatus(plan, 'env').noProxy).toBe('.corp,vllm.lab');
  });

  it.each([
    ['*', 'https://api.anthropic.com', true],
    ['anthropic.com', 'https://api.anthropic.com', true],
    ['anthropic.com', 'https://anthropic.com', true],
    ['.anthropic.com', 'https://api.anthropic.com', true],
    ['*.anthropic.com', 'https://api.anthropic.com', true],
    ['thropic.com', 'https://api.anthropic.com', false],
    ['api.anthropic.com:443', 'https://api.anthropic.com', true],
    ['api.anthropic.com:8443', 'https://api.anthropic.com', false],
    ['10.0.0.0/8', 'http://10.20.30.40:8000', true],
    ['10.0.0.0/8', 'http://11.0.0.1:8000', false],
    ['192.168.1.20', 'http://192.168.1.20:11434', true],
    ['192.168.1.0/24:11434', 'http://192.168.1.20:11434', true],
    ['192.168.1.0/24:8000', 'http://192.168.1.20:11434', false],
    ['[fd00::1]:8000', 'http://[fd00::1]:8000', true],
    ['fd00::1', 'http://[fd00::1]:8000', true],
    ['  Example.COM ,  other.org ', 'https://x.example.com', true],
  ])('NO_PROXY %j for %s: direct %s', (noProxy, origin, direct) => {
    const plan = proxyPlan(ENV, { HTTPS_PROXY: 'http://p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy });
    expect(proxyFor(plan, origin) === undefined).toBe(direct);
  });

  it('parses NO_PROXY entries the way curl writes them', () => {
    expect(parseNoProxy('a.com, .b.com *.c.com d.com:8080,10.1.0.0/16,,')).toEqual([
      { kind: 'host', host: 'a.com' },
      { kind: 'host', host: 'b.com' },
      { kind: 'host', host: 'c.com' },
      { kind: 'host', host: 'd.com', port: 8080 },
      { kind: 'cidr', base: (10 << 24) | (1 << 16), bits: 16 },
    ]);
  });

  it('refuses SOCKS and unreadable proxy URLs: requests that need them fail, none goes direct', () => {
    const plan = proxyPlan(ENV, { HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    const choice = proxyFor(plan, 'https://api.anthropic.com');
    expect(choice).toEqual({ problem: 'HTTPS_PROXY names a socks5 proxy; svc-proxy supports http:// and https:// proxies only.' });
    expect(proxyStatus(plan, 'env').problems).toHaveLength(1);
    expect(proxyFor(plan, 'http://127.0.0.1:11434')).toBeUndefined();
    expect(checkProxyUrl('http://', 'HTTP_PROXY')).toEqual({ problem: 'HTTP_PROXY is not a proxy URL svc-proxy can read; use http://host:port.' });
  });

  it('never shows the proxy credentials in status', () => {
    const plan = proxyPlan(ENV, { HTTPS_PROXY: 'http://alice:s3cret-pw@proxy.corp:3128' });
    expect(proxyFor(plan, 'https://api.openai.com')).toEqual({ url: 'http://alice:s3cret-pw@proxy.corp:3128/', source: 'HTTPS_PROXY' });
    const status = proxyStatus(plan, 'env');
    expect(status).toEqual({ mode: 'env', https: 'http://proxy.corp:3128', httpsSource: 'HTTPS_PROXY', problems: [], noProxy: '' });
    expect(JSON.stringify(status)).not.toContain('s3cret');
  });

  it('gives equal plans equal keys, so unchanged settings keep the connections', () => {
    const env = { HTTPS_PROXY: 'http://p:1' };
    expect(proxyPlan(ENV, env).key).toBe(proxyPlan(ENV, { ...env }).key);
    expect(proxyPlan(ENV, env).key).not.toBe(proxyPlan(ENV, { HTTPS_PROXY: 'http://p:2' }).key);
    expect(proxyPlan(ENV, env).key).not.toBe(proxyPlan(ENV, { ...env, NO_PROXY: 'a.com' }).key);
  });
});

describe('the proxy in words', () => {
  const status = (settings: { upstreamProxy: string; noProxy?: string[] }, env: Record<string, string>) =>
    proxyStatus(proxyPlan({ noProxy: [], ...settings }, env), settings.upstreamProxy);

  it('names one proxy once, or each scheme on its own, with what goes direct; nothing when direct', () => {
    expect(proxyStatusLines(status({ upstreamProxy: 'env' }, { HTTPS_PROXY: 'http://u:pw@p:1', HTTP_PROXY: 'http://p:1', NO_PROXY: '.corp' }))).toEqual([
      'upstream proxy: through http://p:1 (HTTPS_PROXY, HTTP_PROXY); direct: loopback, .corp',
    ]);
    expect(proxyStatusLines(status({ upstreamProxy: 'env' }, { https_proxy: 'http://p:1' }))).toEqual(['upstream proxy: https through http://p:1 (https_proxy), http direct; direct: loopback']);
    expect(proxyStatusLines(status({ upstreamProxy: 'http://gate:8080', noProxy: ['lab'] }, {}))).toEqual([
      'upstream proxy: through http://gate:8080 (settings.upstreamProxy); direct: loopback, lab',
    ]);
    expect(proxyStatusLines(status({ upstreamProxy: 'env' }, { HTTPS_PROXY: 'socks5://s:1080' }))).toEqual([
      'upstream proxy: NOT usable, requests that need it fail: HTTPS_PROXY names a socks5 proxy; svc-proxy supports http:// and https:// proxies only.',
    ]);
    expect(proxyStatusLines(status({ upstreamProxy: 'none' }, { HTTPS_PROXY: 'http://p:1' }))).toEqual([]);
    expect(status({ upstreamProxy: 'none' }, {}).mode).toBe('none');
    expect(status({ upstreamProxy: 'http://gate:8080' }, {}).mode).toBe('url');
  });

  it('tells when this shell names another proxy than the daemon took from the environment it started in', () => {
    const started = status({ upstreamProxy: 'env' }, {});
    expect(shellProxyDiffers(started, { HTTPS_PROXY: 'http://u:pw@proxy.corp:3128' })).toBe(
      'upstream proxy: this shell names http://proxy.corp:3128 for https, direct for http, the daemon started with no proxy; svc-proxy restart makes it take this shell\'s.',
    );
    const withProxy = status({ upstreamProxy: 'env' }, { HTTPS_PROXY: 'http://proxy.corp:3128' });
    expect(shellProxyDiffers(withProxy, { HTTPS_PROXY: 'http://other:3128' })).toContain('the daemon started with http://proxy.corp:3128 for https, direct for http');
    expect(shellProxyDiffers(withProxy, {})).toContain('this shell names no proxy');
    expect(shellProxyDiffers(withProxy, { https_proxy: 'http://proxy.corp:3128' })).toBeUndefined();
    // a proxy of its own (or none) in settings: the shell does not matter
    expect(shellProxyDiffers(status({ upstreamProxy: 'none' }, {}), { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
    expect(shellProxyDiffers(status({ upstreamProxy: 'http://gate:8080' }, {}), { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
  });
});

describe('settings.upstreamProxy in config.json', () => {
  const parse = (value: unknown) => settingsSchema.safeParse({ upstreamProxy: value });

  it('defaults to "env" and takes "none" or an http(s) proxy URL', () => {
    expect(settingsSchema.parse({}).upstreamProxy).toBe('env');
    expect(settingsSchema.parse({}).noProxy).toEqual([]);
    for (const ok of ['env', 'none', 'http://proxy.corp:3128', 'https://proxy.corp', 'proxy.corp:3128', 'http://alice@proxy.corp:3128']) {
      expect(parse(ok).success, ok).toBe(true);
    }
  });

  it('refuses SOCKS, nonsense, and a password kept in the file', () => {
    const socks = parse('socks5://127.0.0.1:1080');
    expect(socks.success).toBe(false);
    expect(socks.error?.issues[0]?.message).toBe('the value names a socks5 proxy; svc-proxy supports http:// and https:// proxies only. Other values: "env", "none".');
    expect(parse('http://').success).toBe(false);
    const password = parse('http://alice:s3cret@proxy.corp:3128');
    expect(password.success).toBe(false);
    expect(password.error?.issues[0]?.message).toMatch(/keep the proxy password out of config\.json: give the URL in HTTPS_PROXY/);
    expect(password.error?.issues[0]?.message).not.toContain('s3cret');
  });
});
