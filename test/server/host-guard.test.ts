import { describe, expect, it } from 'vitest';
import { HostGuard } from '../../src/server/host-guard.js';

describe('HostGuard (DNS rebinding)', () => {
  it('accepts loopback names at our port only', () => {
    const g = new HostGuard(4545, '127.0.0.1', []);
    for (const h of ['127.0.0.1:4545', 'localhost:4545', 'LOCALHOST:4545', '[::1]:4545']) expect(g.allows(h)).toBe(true);
    for (const h of ['127.0.0.1:80', 'localhost', 'evil.example:4545', 'evil.example', '127.0.0.1.nip.io:4545', '']) expect(g.allows(h)).toBe(false);
  });

  it('adds settings.allowedHosts: bare names for any port, name:port for one port, * for all', () => {
    const g = new HostGuard(4545, '127.0.0.1', ['proxy.internal', 'box.lan:8080']);
    expect(g.allows('proxy.internal:4545')).toBe(true);
    expect(g.allows('proxy.internal')).toBe(true);
    expect(g.allows('box.lan:8080')).toBe(true);
    expect(g.allows('box.lan:4545')).toBe(false);
    g.configure(4545, '127.0.0.1', ['*']);
    expect(g.allows('anything:1')).toBe(true);
    g.configure(4545, '127.0.0.1', []);
    expect(g.allows('proxy.internal:4545')).toBe(false);
  });

  it('accepts the explicit bind address, but not a wildcard', () => {
    expect(new HostGuard(4545, '192.168.1.5', []).allows('192.168.1.5:4545')).toBe(true);
    expect(new HostGuard(4545, '0.0.0.0', []).allows('0.0.0.0:4545')).toBe(false);
  });
});
