/**
 * A screen key pressed while the daemon is still storing a provider's key waits: the answer (here
 * the question whether to use the 0600 file, there being no keychain) needs the providers screen
 * still on screen, or it went nowhere and nothing was stored.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/svc-proxy-tui-test-bus';
});

import { AdminClient } from '../../src/cli/admin-client.js';
import { removeTempDirs } from '../daemon/harness.js';
import { KEYS, startTui, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

describe('providers screen, a slow connect', () => {
  it('holds the screen keys until the answer is on screen; then they work again', async () => {
    // the connect is answered only when the test says (before the TUI binds its client's request)
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const request = AdminClient.prototype.request;
    vi.spyOn(AdminClient.prototype, 'request').mockImplementation(async function (this: AdminClient, ...args: Parameters<AdminClient['request']>) {
      if (args[0] === 'PUT' && args[1].endsWith('/credential')) await answered;
      return request.apply(this, args);
    });
    h = await startTui({ initialScreen: 'providers' });
    await h.waitFor((f) => f.includes('anthropic'), 'the list');
    await h.press('c');
    await h.waitFor((f) => f.includes('API key for anthropic:'), 'the hidden prompt');
    await h.type('sk-ant-slow-connect-5555');
    await h.press(KEYS.enter, '1', KEYS.tab, 'q');
    answer();
    await h.waitFor((fr) => fr.includes('No usable OS keychain'), 'the insecure-storage question');
    await h.press('y');
    const f = await h.waitFor((fr) => fr.includes('anthropic connected'), 'the connect');
    expect(f).toContain('key …5555 stored in the insecure credentials file');
    await h.press('1');
    await h.waitFor((fr) => showsScreen(fr, '1'), 'the log');
  });
});
