/**
 * DNS-rebinding guard: a web page can make a browser send requests to 127.0.0.1 under a hostile
 * name, but it cannot forge the Host header. Accept only loopback names at our port, plus what
 * settings.allowedHosts lists ("name" = any port, "name:port" = that port, "*" = anything).
 */
export class HostGuard {
  private allowed = new Set<string>();
  private anyPortNames = new Set<string>();
  private allowAll = false;

  constructor(port: number, boundHost: string, allowedHosts: readonly string[]) {
    this.configure(port, boundHost, allowedHosts);
  }

  configure(port: number, boundHost: string, allowedHosts: readonly string[]): void {
    const allowed = new Set<string>();
    const anyPort = new Set<string>();
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) allowed.add(`${name}:${port}`);
    if (port === 80) for (const name of ['127.0.0.1', 'localhost', '[::1]']) allowed.add(name);
    const bound = boundHost.includes(':') && !boundHost.startsWith('[') ? `[${boundHost}]` : boundHost;
    if (bound !== '0.0.0.0' && bound !== '[::]') allowed.add(`${bound.toLowerCase()}:${port}`);
    let all = false;
    for (const raw of allowedHosts) {
      const entry = raw.trim().toLowerCase();
      if (entry === '*') all = true;
      else if (/:\d+$/.test(entry)) allowed.add(entry);
      else if (entry) anyPort.add(entry);
    }
    this.allowed = allowed;
    this.anyPortNames = anyPort;
    this.allowAll = all;
  }

  /** `host` is the raw Host header. */
  allows(host: string): boolean {
    if (this.allowAll) return true;
    const h = host.toLowerCase();
    if (this.allowed.has(h)) return true;
    if (this.anyPortNames.size === 0) return false;
    const name = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d+$/, '');
    return this.anyPortNames.has(name);
  }
}
