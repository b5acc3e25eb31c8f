/**
 * Which outbound proxy, if any, an upstream call goes through. Laptops on company networks often
 * reach the internet only through an HTTP proxy named in HTTPS_PROXY, and every coding tool there
 * honours it; a daemon that ignored it could not reach any provider. Pure: the plan is made from
 * `settings.upstreamProxy`/`settings.noProxy` and the daemon's environment, and asked per origin.
 *
 * - `settings.upstreamProxy`: "env" (the default) reads `https_proxy`/`HTTPS_PROXY` for https
 *   origins and `http_proxy`/`HTTP_PROXY` for http ones (lower case first, as curl and undici do),
 *   with `no_proxy`/`NO_PROXY`; "none" always connects directly; a URL sends every upstream through
 *   that proxy (with `settings.noProxy`). A password belongs in the environment, not config.json.
 * - Loopback (localhost, 127.0.0.0/8, ::1) is always direct: a local server (Ollama, LM Studio …)
 *   runs on this machine, where a remote proxy cannot reach it.
 * - NO_PROXY entries: `*`, a host (which also covers its subdomains), `.example.com` or
 *   `*.example.com`, an optional `:port`, IP addresses and IPv4 CIDR ranges (`10.0.0.0/8`).
 * - Only http:// and https:// proxies; a SOCKS URL is refused (undici's SOCKS support is
 *   experimental), and requests that would use it fail saying so, rather than going direct.
 */

import { isLoopbackHost } from '../config/base-urls.js';
import { checkProxyUrl } from '../config/proxy-url.js';
import { displayOrigin } from './base-url.js';

export interface ProxyPlan {
  /** Where the plan comes from, for status and messages: "HTTPS_PROXY", "settings.upstreamProxy" … */
  readonly httpsSource?: string;
  readonly httpSource?: string;
  /** Proxy URL (credentials included) for https and http origins; undefined: direct. */
  readonly https?: string;
  readonly http?: string;
  /** Why a configured proxy cannot be used (a SOCKS or malformed URL): requests fail with it. */
  readonly httpsProblem?: string;
  readonly httpProblem?: string;
  readonly noProxy: readonly NoProxyRule[];
  /** The NO_PROXY text as given, for status. */
  readonly noProxyText: string;
  /** Equal plans have equal keys (the upstream client keeps its connections while the key stays). */
  readonly key: string;
}

export type NoProxyRule =
  | { kind: 'all' }
  | { kind: 'host'; host: string; port?: number }
  | { kind: 'cidr'; base: number; bits: number; port?: number };

/** The proxy to use for one origin: a URL, a problem to fail with, or nothing (direct). */
export type ProxyChoice = { url: string; source: string } | { problem: string } | undefined;

export type ProxySetting = string;

export const DIRECT_PLAN: ProxyPlan = { noProxy: [], noProxyText: '', key: 'direct' };

type Env = Record<string, string | undefined>;

function firstSet(env: Env, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

export function parseNoProxy(text: string): NoProxyRule[] {
  const rules: NoProxyRule[] = [];
  for (const raw of text.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') {
      rules.push({ kind: 'all' });
      continue;
    }
    const cidr = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})(?::(\d+))?$/.exec(entry);
    if (cidr) {
      const base = ipv4ToNumber(cidr[1]);
      const bits = Number(cidr[2]);
      if (base !== undefined && bits <= 32) rules.push({ kind: 'cidr', base: maskOf(base, bits), bits, ...(cidr[3] ? { port: Number(cidr[3]) } : {}) });
      continue;
    }
    // `[::1]:8080`, `host:443`, `::1` (an IPv6 address without brackets has no port)
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const withPort = bracketed ? undefined : /^([^:]+):(\d+)$/.exec(entry);
    const host = bracketed ? bracketed[1] : withPort ? withPort[1] : entry;
    const port = bracketed?.[2] ?? withPort?.[2];
    const name = host.replace(/^\*?\./, '');
    if (name) rules.push(port ? { kind: 'host', host: name, port: Number(port) } : { kind: 'host', host: name });
  }
  return rules;
}

function ipv4ToNumber(text: string): number | undefined {
  const parts = text.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

function maskOf(address: number, bits: number): number {
  return bits === 0 ? 0 : (address & (~0 << (32 - bits))) >>> 0;
}

export interface ProxySettings {
  upstreamProxy: ProxySetting;
  noProxy: readonly string[];
}

/** The plan for these settings and environment. */
export function proxyPlan(settings: ProxySettings, env: Env): ProxyPlan {
  const setting = settings.upstreamProxy.trim();
  if (setting === 'none') return DIRECT_PLAN;
  if (setting !== 'env' && setting !== '') {
    const checked = checkProxyUrl(setting, 'settings.upstreamProxy');
    const source = 'settings.upstreamProxy';
    return build({ https: checked, http: checked, httpsSource: source, httpSource: source, noProxyText: settings.noProxy.join(',') });
  }
  const https = firstSet(env, ['https_proxy', 'HTTPS_PROXY']);
  const http = firstSet(env, ['http_proxy', 'HTTP_PROXY']);
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  const noProxyText = [noProxy?.value, ...settings.noProxy].filter(Boolean).join(',');
  const half = (v: { name: string; value: string } | undefined) => (v ? checkProxyUrl(v.value, v.name) : undefined);
  return build({ https: half(https), http: half(http), httpsSource: https?.name, httpSource: http?.name, noProxyText });
}

type Half = { url: string } | { problem: string } | undefined;

function build(p: { https: Half; http: Half; httpsSource?: string; httpSource?: string; noProxyText: string }): ProxyPlan {
  if (!p.https && !p.http) return DIRECT_PLAN;
  const plan: ProxyPlan = {
    https: p.https && 'url' in p.https ? p.https.url : undefined,
    http: p.http && 'url' in p.http ? p.http.url : undefined,
    httpsProblem: p.https && 'problem' in p.https ? p.https.problem : undefined,
    httpProblem: p.http && 'problem' in p.http ? p.http.problem : undefined,
    httpsSource: p.https ? p.httpsSource : undefined,
    httpSource: p.http ? p.httpSource : undefined,
    noProxy: parseNoProxy(p.noProxyText),
    noProxyText: p.noProxyText,
    key: '',
  };
  return { ...plan, key: JSON.stringify([plan.https, plan.http, plan.httpsProblem, plan.httpProblem, plan.noProxyText]) };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy for `origin` (`http(s)://host[:port]`) under this plan. */
export function proxyFor(plan: ProxyPlan, origin: string): ProxyChoice {
  if (plan === DIRECT_PLAN) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return undefined;
  }
  const https = parsed.protocol === 'https:';
  const url = https ? plan.https : plan.http;
  const problem = https ? plan.httpsProblem : plan.httpProblem;
  if (!url && !problem) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  if (isLoopbackHost(host) || host.endsWith('.localhost') || excluded(plan.noProxy, host, port)) return undefined;
  if (problem) return { problem };
  return { url: url as string, source: (https ? plan.httpsSource : plan.httpSource) ?? 'the proxy setting' };
}

function excluded(rules: readonly NoProxyRule[], host: string, port: number): boolean {
  const address = ipv4ToNumber(host);
  for (const rule of rules) {
    if (rule.kind === 'all') return true;
    if (rule.port !== undefined && rule.port !== port) continue;
    if (rule.kind === 'host') {
      if (host === rule.host || host.endsWith(`.${rule.host}`)) return true;
    } else if (address !== undefined && maskOf(address, rule.bits) === rule.base) {
      return true;
    }
  }
  return false;
}

/** What status shows: the proxies (without credentials), where they come from, what goes direct. */
export interface ProxyStatus {
  /** settings.upstreamProxy: the environment's variables, none, or a URL of its own. */
  mode: 'env' | 'none' | 'url';
  https?: string;
  http?: string;
  httpsSource?: string;
  httpSource?: string;
  problems: string[];
  noProxy: string;
}

export function proxyStatus(plan: ProxyPlan, setting: ProxySetting): ProxyStatus {
  const trimmed = setting.trim();
  const mode = trimmed === 'none' ? 'none' : trimmed === 'env' || trimmed === '' ? 'env' : 'url';
  const status: ProxyStatus = { mode, problems: [], noProxy: plan.noProxyText };
  if (plan.https) status.https = displayOrigin(plan.https);
  if (plan.http) status.http = displayOrigin(plan.http);
  if (plan.httpsSource) status.httpsSource = plan.httpsSource;
  if (plan.httpSource) status.httpSource = plan.httpSource;
  for (const p of [plan.httpsProblem, plan.httpProblem]) if (p && !status.problems.includes(p)) status.problems.push(p);
  return status;
}

/** Status in words: which proxy each scheme goes through and what goes direct, or nothing when direct. */
export function proxyStatusLines(p: ProxyStatus): string[] {
  const lines: string[] = [];
  if (p.https || p.http) {
    const side = (scheme: string, url?: string, source?: string) => `${scheme} ${url ? `through ${url} (${source})` : 'direct'}`;
    const sources = p.httpsSource === p.httpSource ? p.httpsSource : `${p.httpsSource}, ${p.httpSource}`;
    const route = p.https && p.https === p.http ? `through ${p.https} (${sources})` : `${side('https', p.https, p.httpsSource)}, ${side('http', p.http, p.httpSource)}`;
    lines.push(`upstream proxy: ${route}; direct: loopback${p.noProxy ? `, ${p.noProxy}` : ''}`);
  }
  for (const problem of p.problems) lines.push(`upstream proxy: NOT usable, requests that need it fail: ${problem}`);
  return lines;
}

/**
 * When the daemon takes its proxy from the environment it started in, and this shell's differs
 * (HTTPS_PROXY set or changed after the start): what to tell the user, else undefined.
 */
export function shellProxyDiffers(daemon: ProxyStatus, env: Record<string, string | undefined>): string | undefined {
  if (daemon.mode !== 'env') return undefined;
  const shell = proxyStatus(proxyPlan({ upstreamProxy: 'env', noProxy: [] }, env), 'env');
  if (shell.https === daemon.https && shell.http === daemon.http) return undefined;
  const what = (s: ProxyStatus) => (s.https || s.http ? `${s.https ?? 'direct'} for https, ${s.http ?? 'direct'} for http` : 'no proxy');
  return `upstream proxy: this shell names ${what(shell)}, the daemon started with ${what(daemon)}; svc-proxy restart makes it take this shell's.`;
}
