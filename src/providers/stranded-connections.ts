/**
 * Upstream connections stranded by a change of network. When the laptop leaves a Wi-Fi network,
 * or gets another address after a sleep, a connection opened from the old address can never carry
 * another byte: nothing tells the socket (no reset comes back to an address that is gone), so a
 * stream under way on it waited, silent, for the idle timeout (5 min by default) before the tool
 * heard anything. Retiring the pools (network-watch.ts) only spares later requests. Here every
 * upstream socket is known from the moment it connects (undici's `undici:client:connected`
 * diagnostics channel; once per connection, nothing per request), and the ones whose local address
 * the machine no longer has are ended at once: their requests fail as a reset, which a group
 * falls back on and the tool sees and retries at once.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** The code the requests cut this way fail with (upstream-error.ts words it). */
export const NETWORK_CHANGED = 'SVC_NETWORK_CHANGED';

const CHANNEL = 'undici:client:connected';
const open = new Set<Socket>();

function onConnected(message: unknown): void {
  const socket = (message as { socket?: Socket } | null)?.socket;
  if (!socket || socket.destroyed || open.has(socket)) return;
  open.add(socket);
  socket.once('close', () => open.delete(socket));
}

/** Start knowing the upstream sockets; returns the stop. */
export function trackUpstreamSockets(): () => void {
  subscribe(CHANNEL, onConnected);
  return () => {
    unsubscribe(CHANNEL, onConnected);
    open.clear();
  };
}

/** `::ffff:10.0.0.5` and `10.0.0.5` are one address. */
function plain(address: string): string {
  return address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
}

/** End every upstream connection made from one of these addresses; returns how many. */
export function dropConnectionsFrom(addresses: readonly string[]): number {
  const gone = new Set(addresses.map(plain));
  let dropped = 0;
  for (const socket of open) {
    const local = socket.localAddress;
    if (local === undefined || !gone.has(plain(local))) continue;
    const err = Object.assign(new Error(`this machine no longer has the address ${local} the connection was made from (the network changed)`), { code: NETWORK_CHANGED });
    socket.destroy(err);
    open.delete(socket);
    dropped++;
  }
  return dropped;
}
