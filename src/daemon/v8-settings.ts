/**
 * The V8 settings the daemon runs with. The background daemon gets them as node flags
 * (control.ts spawns it with DAEMON_NODE_FLAGS); a daemon run in-process (`start --foreground`,
 * tests) sets them at start, before the first upstream request compiles anything — the same way
 * Jest exposes gc for --logHeapUsage.
 *
 * --expose-gc: the idle collector hands memory back after a burst (idle-collector.ts).
 * --no-wasm-tier-up: undici's HTTP parser is WebAssembly; optimising it with TurboFan took ~37 MB
 * of compiler memory on the first upstream request (valgrind massif), which glibc kept: RSS after
 * one request went 71 → 85 MB with it and 71 → 74 MB without, and the bench's proxy CPU per
 * request did not get worse.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export const DAEMON_NODE_FLAGS = ['--expose-gc', '--no-wasm-tier-up'] as const;

/** Apply the settings to this process; returns V8's full-collection function. */
export function applyDaemonV8Settings(): () => void {
  setFlagsFromString('--no-wasm-tier-up');
  const exposed: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  setFlagsFromString('--expose-gc');
  // a fresh context is created after the flag is set, so it has gc on its global
  return runInNewContext('gc') as () => void;
}
