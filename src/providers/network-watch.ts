/**
 * Notices that the machine's network changed: a VPN connected or dropped, Wi-Fi gave way to a
 * cable, the laptop joined another network. Connections opened over the old network are dead or
 * misrouted after it, but a pooled one looks alive until a request is written into it and waits,
 * unanswered, up to the headers timeout. Browsers close their idle sockets on such a change; the
 * daemon does the same with its upstream pools. It looks at the interfaces' addresses every few
 * seconds (one getifaddrs call) and reports when the set of external addresses differs.
 */
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

export type InterfacesReader = () => NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The external addresses, `name address` sorted: equal when the network is the same. */
export function networkSignature(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string {
  const entries: string[] = [];
  for (const [name, infos] of Object.entries(interfaces)) {
    // a container's end of a veth pair appears with every `docker run`, and carries no route out
    if (name.startsWith('veth')) continue;
    for (const info of infos ?? []) {
      // loopback never changes, and IPv6 link-local addresses come and go with no route behind them
      if (info.internal || (info.family === 'IPv6' && info.address.toLowerCase().startsWith('fe80:'))) continue;
      entries.push(`${name} ${info.address}`);
    }
  }
  return entries.sort().join('\n');
}

export interface NetworkWatchOptions {
  /** How often to look (default 3 s). */
  everyMs?: number;
  interfaces?: InterfacesReader;
}

/**
 * Call `onChange` with what came and went whenever the external addresses change. The timer never
 * keeps the process alive. Returns the stop.
 */
export function watchNetwork(onChange: (change: { added: string[]; removed: string[] }) => void, options: NetworkWatchOptions = {}): () => void {
  const read = options.interfaces ?? networkInterfaces;
  const look = (): string => {
    try {
      return networkSignature(read());
    } catch {
      return last; // unreadable this time: nothing to compare
    }
  };
  let last = '';
  last = look();
  const timer = setInterval(() => {
    const now = look();
    if (now === last) return;
    const before = new Set(last.split('\n').filter(Boolean));
    const after = new Set(now.split('\n').filter(Boolean));
    last = now;
    onChange({ added: [...after].filter((a) => !before.has(a)), removed: [...before].filter((a) => !after.has(a)) });
  }, options.everyMs ?? 3_000);
  timer.unref();
  return () => clearInterval(timer);
}
