/** The URLs clients are pointed at, for a daemon listening on host:port. */

export interface BaseUrls {
  /** Protocol A (OpenAI SDKs: Chat Completions, Responses). */
  a: string;
  /** Protocol B (Anthropic SDKs: Messages). */
  b: string;
}

/** The address a client should dial: wildcard binds are reached through loopback. */
export function dialHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::' || host === '[::]') return '[::1]';
  if (host.includes(':') && !host.startsWith('[')) return `[${host}]`;
  return host;
}

export function origin(host: string, port: number): string {
  return `http://${dialHost(host)}:${port}`;
}

export function baseUrls(host: string, port: number, group?: string): BaseUrls {
  const root = group ? `${origin(host, port)}/g/${group}` : origin(host, port);
  return { a: `${root}/protocol-a/v1`, b: `${root}/protocol-b` };
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
