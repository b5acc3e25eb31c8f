/**
 * The current shell as the tools started from it will see it: each base URL variable a tool reads,
 * whether it leads to this daemon and to one of its bases, and whether the key beside it is
 * accepted — found by asking the model list there, as the tool's SDK would. No key's characters
 * are ever printed.
 */
import { matchProxyPath } from '../../server/route-table.js';
import type { Finding } from './findings.js';

interface ShellBase {
  variable: string;
  /** Key variables in the order the tools read them. */
  keys: readonly string[];
  protocol: 'a' | 'b';
  tools: string;
  /** The `svc-proxy env` profile that sets them. */
  profile: string;
}

export const SHELL_BASES: readonly ShellBase[] = [
  { variable: 'ANTHROPIC_BASE_URL', keys: ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY'], protocol: 'b', tools: 'Claude Code and the Anthropic SDKs', profile: 'claude-code' },
  { variable: 'OPENAI_BASE_URL', keys: ['OPENAI_API_KEY'], protocol: 'a', tools: 'the OpenAI SDKs and Qwen Code', profile: 'openai' },
  { variable: 'OPENAI_API_BASE', keys: ['OPENAI_API_KEY'], protocol: 'a', tools: 'aider', profile: 'aider' },
];

/** The path a base of ours has: protocol B's without /v1 (the SDKs add /v1/messages), protocol A's with it. */
const BASE_PATH = { a: /^(\/g\/[^/]+)?\/protocol-a\/v1\/?$/, b: /^(\/g\/[^/]+)?\/protocol-b\/?$/ } as const;
const EXAMPLE_PATH = { a: '/protocol-a/v1', b: '/protocol-b' } as const;
/** What the tools' SDKs append to the base for their main call, and the endpoint it must reach. */
const SDK_CALL = { a: { path: '/chat/completions', endpoint: 'chat' }, b: { path: '/v1/messages', endpoint: 'messages' } } as const;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const PROBE_TIMEOUT_MS = 20_000;

export interface DaemonAddress {
  host: string;
  port: number;
}

type Env = Readonly<Record<string, string | undefined>>;

export async function shellFindings(env: Env, daemon: DaemonAddress | undefined): Promise<Finding[]> {
  const set = SHELL_BASES.filter((b) => (env[b.variable] ?? '') !== '');
  if (set.length === 0) {
    return [{ check: 'shell', mark: 'info', text: `no base URL variable of a tool is set (${SHELL_BASES.map((b) => b.variable).join(', ')})`, fix: 'eval "$(svc-proxy env claude-code)" (or codex, openai, aider …), or svc-proxy run <tool>' }];
  }
  return Promise.all(set.map((b) => checkBase(b, env, daemon)));
}

async function checkBase(b: ShellBase, env: Env, daemon: DaemonAddress | undefined): Promise<Finding> {
  const check = `shell ${b.variable}`;
  const value = env[b.variable]!;
  const repoint = `eval "$(svc-proxy env ${b.profile})"`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { check, mark: 'fail', text: `${JSON.stringify(value)} is not a URL`, fix: repoint };
  }
  const ours = LOOPBACK.has(url.hostname) || url.hostname === daemon?.host;
  if (!ours) return { check, mark: 'info', text: `points at ${url.origin}, not at svc-proxy: ${b.tools} started from this shell go there` };
  if (!daemon) return { check, mark: 'fail', text: `points at ${url.origin}, where no svc-proxy runs`, fix: 'svc-proxy start (or svc-proxy service install, to have it at every login)' };
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port !== daemon.port) return { check, mark: 'fail', text: `points at port ${port}; the daemon listens on ${daemon.port}`, fix: repoint };
  const path = url.pathname;
  let unusual: string | undefined;
  if (!BASE_PATH[b.protocol].test(path)) {
    // judged by the route the SDK's own request takes: the daemon tolerates a missing or doubled /v1
    const sdk = SDK_CALL[b.protocol];
    const call = `${path.replace(/\/+$/, '')}${sdk.path}`;
    const route = matchProxyPath(call, 'POST');
    const usualCall = `${/^\/g\/[^/]+/.exec(path)?.[0] ?? ''}${EXAMPLE_PATH[b.protocol]}${sdk.path}`;
    if (!route.ok || route.route.protocol !== b.protocol || route.route.endpoint !== sdk.endpoint) {
      return { check, mark: 'fail', text: `${path} is not a protocol ${b.protocol.toUpperCase()} base: requests from ${b.tools} would go to ${call} (they add ${sdk.path} themselves), which svc-proxy has no route for; it should end in ${EXAMPLE_PATH[b.protocol]}`, fix: repoint };
    }
    unusual = `${path} is not the base as svc-proxy gives it (ending in ${EXAMPLE_PATH[b.protocol]}): requests from ${b.tools} go to ${call} (they add ${sdk.path} themselves), which svc-proxy answers as ${usualCall}`;
  }
  const keyVars = b.keys.filter((k) => (env[k] ?? '') !== '');
  const found: Finding = keyVars.length === 0 ? { check, mark: 'fail', text: `no key: ${b.keys.join(' or ')} is not set`, fix: repoint } : await probe(b, url, env, keyVars, check, repoint);
  if (!unusual) return found;
  // it works: a warning at most, with the usual base to set; a failure keeps the note, or the
  // user fixes the key and only then hears of the path
  if (found.mark === 'ok') return { check, mark: 'warn', text: `${found.text}; but ${unusual}`, fix: repoint };
  return { ...found, text: `${found.text}; also, ${unusual}` };
}

/** The model list under the base, with the key headers the tool's SDK sends. */
async function probe(b: ShellBase, base: URL, env: Env, keyVars: string[], check: string, repoint: string): Promise<Finding> {
  const root = base.href.replace(/\/$/, '');
  const headers: Record<string, string> = {};
  for (const k of keyVars) {
    if (k === 'ANTHROPIC_API_KEY') headers['x-api-key'] = env[k]!;
    else headers.authorization = `Bearer ${env[k]!}`;
  }
  if (b.protocol === 'b') headers['anthropic-version'] = '2023-06-01';
  const target = b.protocol === 'b' ? `${root}/v1/models` : `${root}/models`;
  let res: Response;
  try {
    res = await fetch(target, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch (err) {
    return { check, mark: 'fail', text: `no answer from ${base.origin} (${err instanceof Error ? err.message : String(err)})` };
  }
  const message = await errorMessage(res);
  const group = /^\/g\/([^/]+)\//.exec(base.pathname)?.[1];
  const where = `svc-proxy protocol ${b.protocol.toUpperCase()}${group ? `, group ${group}` : ''}`;
  if (res.ok) return { check, mark: 'ok', text: `${where}; the key in ${keyVars.join(' / ')} is accepted` };
  if (res.status === 401) {
    const notService = keyVars.filter((k) => !env[k]!.startsWith('sk-svc-proxy-'));
    const which = notService.length > 0 ? ` (${notService.join(', ')} holds no service key: those start sk-svc-proxy-)` : '';
    return { check, mark: 'fail', text: `${where} refuses the key${which}: ${message}`, fix: `svc-proxy key create --name <name>, then ${repoint}` };
  }
  return { check, mark: 'fail', text: `${where} answered ${res.status}: ${message}`, fix: group ? 'svc-proxy group list' : repoint };
}

async function errorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  if (res.ok) return '';
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not JSON: the status says it
  }
  return text.slice(0, 200) || res.statusText;
}
