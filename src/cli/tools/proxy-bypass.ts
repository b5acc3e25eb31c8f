/**
 * A tool started in a shell with HTTPS_PROXY/HTTP_PROXY sends its requests for svc-proxy's
 * 127.0.0.1 base to that proxy too, unless NO_PROXY names the address: most clients do not exempt
 * loopback by themselves (Claude Code 2.1.332 sent its request for http://127.0.0.1:<port> to the
 * proxy in HTTP_PROXY), and a remote proxy cannot reach this machine's loopback. So `env` and `run`
 * add the daemon's host to NO_PROXY (and no_proxy, which some tools read instead) whenever a
 * proxy variable is set.
 */

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'all_proxy', 'ALL_PROXY'];

export interface ProxyBypass {
  /** NO_PROXY and no_proxy, the current list with the daemon's host added. */
  env: Array<[name: string, value: string]>;
  note: string;
}

/**
 * What to add so a tool reaches the daemon at `host` directly; undefined when no proxy variable is
 * set or NO_PROXY already covers the host.
 */
export function proxyBypass(env: Record<string, string | undefined>, host: string): ProxyBypass | undefined {
  const proxyVariable = PROXY_VARIABLES.find((name) => env[name]?.trim());
  if (!proxyVariable) return undefined;
  const current = (env.no_proxy ?? env.NO_PROXY ?? '').trim();
  const entries = current.split(/[,\s]+/).filter(Boolean);
  // the literal address, not upstream-proxy.ts's matching: the tool reads NO_PROXY with its own
  // parser, and not every one takes ranges like 127.0.0.0/8
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const covered = (e: string) => e === '*' || e.toLowerCase().replace(/^\[|\]$/g, '') === bare;
  if (entries.some(covered)) return undefined;
  const value = [...entries, bare].join(',');
  return {
    env: [
      ['NO_PROXY', value],
      ['no_proxy', value],
    ],
    note: `${proxyVariable} is set: NO_PROXY now also names ${bare}, so the tool reaches svc-proxy directly rather than through that proxy.`,
  };
}
