import type { NetworkInterfaceInfo } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { networkSignature, watchNetwork } from '../../src/providers/network-watch.js';

function info(address: string, family: 'IPv4' | 'IPv6' = 'IPv4', internal = false): NetworkInterfaceInfo {
  const base = { address, netmask: family === 'IPv4' ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::', mac: '02:00:00:00:00:01', internal, cidr: null };
  return family === 'IPv4' ? { ...base, family } : { ...base, family, scopeid: 0 };
}

const WIFI = { lo: [info('127.0.0.1', 'IPv4', true), info('::1', 'IPv6', true)], wlan0: [info('192.168.1.20'), info('fe80::1', 'IPv6')] };

describe('networkSignature', () => {
  it('lists external addresses only, sorted, without loopback or IPv6 link-local ones', () => {
    expect(networkSignature(WIFI)).toBe('wlan0 192.168.1.20');
    expect(networkSignature({ ...WIFI, tun0: [info('10.8.0.2'), info('fd00::2', 'IPv6')] })).toBe('tun0 10.8.0.2\ntun0 fd00::2\nwlan0 192.168.1.20');
    expect(networkSignature({ lo: WIFI.lo })).toBe('');
    expect(networkSignature({ ...WIFI, veth3a1f2c: [info('172.17.0.1')] }), 'containers come and go').toBe('wlan0 192.168.1.20');
  });
});

describe('watchNetwork', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports a VPN coming up and going away, and nothing while the network stays', () => {
    vi.useFakeTimers();
    let now: NodeJS.Dict<NetworkInterfaceInfo[]> = WIFI;
    const changes: Array<{ added: string[]; removed: string[] }> = [];
    const stop = watchNetwork((c) => changes.push(c), { everyMs: 1_000, interfaces: () => now });
    vi.advanceTimersByTime(5_000);
    expect(changes).toEqual([]);
    now = { ...WIFI, tun0: [info('10.8.0.2')] };
    vi.advanceTimersByTime(1_000);
    expect(changes).toEqual([{ added: ['tun0 10.8.0.2'], removed: [] }]);
    now = { lo: WIFI.lo, eth0: [info('10.0.0.7')] };
    vi.advanceTimersByTime(1_000);
    expect(changes[1]).toEqual({ added: ['eth0 10.0.0.7'], removed: ['tun0 10.8.0.2', 'wlan0 192.168.1.20'] });
    stop();
    now = WIFI;
    vi.advanceTimersByTime(5_000);
    expect(changes).toHaveLength(2);
  });

  it('takes an unreadable look for no change', () => {
    vi.useFakeTimers();
    let fail = false;
    const changes: unknown[] = [];
    const stop = watchNetwork((c) => changes.push(c), {
      everyMs: 1_000,
      interfaces: () => {
        if (fail) throw new Error('EMFILE');
        return WIFI;
      },
    });
    fail = true;
    vi.advanceTimersByTime(3_000);
    fail = false;
    vi.advanceTimersByTime(3_000);
    expect(changes).toEqual([]);
    stop();
  });
});
