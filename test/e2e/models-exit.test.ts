/**
 * `svc-proxy models` exit codes against the real daemon: nothing connected is not a failure to
 * list (exit 0, with how to connect one); a provider whose list failed, with nothing listed, is (exit 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKeychainService } from '../daemon/harness.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';

let d: TestDaemon;

// no credentials in the environment nor in the keychain (a service of its own: other tests store
// keys in the suite's keychain), and no probing of this machine's Ollama / LM Studio ports
beforeAll(async () => {
  d = await startDaemon({ env: { SVC_PROXY_NO_LOCAL_DETECT: '1', SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
}, 60_000);
afterAll(() => stopDaemon(d));

describe('svc-proxy models: exit codes', () => {
  it('nothing connected: "No models listed." with how to connect one, exit 0', async () => {
    const res = await d.cli(['models'], { allowFail: true, timeoutMs: 40_000 });
    expect(res.stdout).toContain('No models listed.');
    expect(res.stdout).toContain('Nothing is connected yet: svc-proxy provider connect');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it('a list that could not be fetched and nothing listed: exit 1 with the reason on stderr', async () => {
    await d.cli(['local', 'add', 'gone', '--url', 'http://127.0.0.1:9']);
    const res = await d.cli(['models'], { allowFail: true, timeoutMs: 40_000 });
    expect(res.stdout).toContain('No models listed; 1 could not be listed (below).');
    expect(res.stderr).toMatch(/^gone: no model list: upstream_unreachable/m);
    expect(res.code).toBe(1);
  });
});
