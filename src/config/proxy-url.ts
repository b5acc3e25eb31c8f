/** Reading an outbound proxy URL, for the settings schema and for the environment's HTTPS_PROXY alike. */

/**
 * A proxy URL as given (a bare `host:port` means http://, as curl reads it), or why it cannot be
 * used. The message never repeats the URL's credentials.
 */
export function checkProxyUrl(text: string, source: string): { url: string } | { problem: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return { problem: `${source} is not a proxy URL svc-proxy can read; use http://host:port.` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { problem: `${source} names a ${parsed.protocol.replace(/:$/, '')} proxy; svc-proxy supports http:// and https:// proxies only.` };
  }
  if (!parsed.hostname) return { problem: `${source} has no host; use http://host:port.` };
  return { url: parsed.href };
}
