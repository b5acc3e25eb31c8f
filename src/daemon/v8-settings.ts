/**
 * The V8 settings the daemon runs with. The background daemon gets them as node flags
 * (control.ts spawns it with DAEMON_NODE_FLAGS); a daemon run in-process (`start --foreground`,
 * tests) sets them at start, before the first upstream request compiles anything.
 *
 * --no-wasm-tier-up: undici's HTTP parser is WebAssembly; optimising it with TurboFan took ~37 MB
 * of compiler memory on the first upstream request (valgrind massif), which glibc kept: RSS after
 * one request went 71 → 85 MB with it and 71 → 74 MB without, and the bench's proxy CPU per
 * request did not get worse.
 */
import { setFlagsFromString } from 'node:v8';

export const DAEMON_NODE_FLAGS = ['--no-wasm-tier-up'] as const;

/** Apply the settings to this process. */
export function applyDaemonV8Settings(): void {
  for (const flag of DAEMON_NODE_FLAGS) setFlagsFromString(flag);
}
