/** The daemon's V8 settings, as node flags for the spawned daemon (the e2e test reads its cmdline). */
import { describe, expect, it } from 'vitest';
import { DAEMON_NODE_FLAGS } from '../../src/daemon/v8-settings.js';

describe('daemon V8 settings', () => {
  it('the spawned daemon runs without TurboFan tier-up of WebAssembly (undici parser)', () => {
    expect(DAEMON_NODE_FLAGS).toEqual(['--no-wasm-tier-up']);
  });
});
