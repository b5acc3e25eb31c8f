/**
 * Connecting a provider from the TUI in a real terminal, its key going to the OS keychain: the real
 * binary (`svc-proxy tui` in tmux) on a real daemon process, whose Secret Service entries are in a
 * keychain service of this test's own. The key typed in the hidden field reaches the keychain (and
 * no file), the row says only where it lives, a request through the proxy reaches the mock Anthropic
 * upstream with it, and disconnecting removes it from the keychain; neither the screen nor the
 * daemon's output ever shows it. Run it through scripts/with-keychain.sh; without a keychain it is
 * skipped with the reason (REQUIRE_KEYCHAIN=1: it fails instead).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeychain } from '../../src/secrets/keychain.js';
import { keychainAvailability, testKeychainService } from '../daemon/harness.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { startAnthropicMock, type AnthropicMock } from '../fixtures/mock-upstream/index.js';
import { anthropicRefusal } from '../fixtures/sdk-refusals.js';
import { TmuxPane, tmuxAvailable } from '../tui/tmux.js';
import { tuiCommand } from './tui-command.js';

const SECRET = 'sk-ant-tui-keychain-e2e-Secret_Kc7319';
const keychain = await keychainAvailability();
const hasTmux = tmuxAvailable();
const service = testKeychainService();

describe('connecting a provider from the TUI, its key into the OS keychain', () => {
  let mock: AnthropicMock | undefined;
  let d: TestDaemon | undefined;
  let pane: TmuxPane | undefined;

  beforeAll(async () => {
    if (!keychain.ok || !hasTmux) return;
    // the mock answers only with the key typed into the TUI
    mock = await startAnthropicMock({ apiKey: SECRET });
    const base = mock.baseUrl;
    d = await startDaemon({ env: { SVC_PROXY_KEYCHAIN_SERVICE: service }, setup: (t) => t.cli(['provider', 'set', 'anthropic', '--base-url', base]).then(() => undefined) });
  }, 60_000);
  afterAll(async () => {
    await pane?.kill();
    await stopDaemon(d);
    await mock?.close();
    // a failed run may leave the entry behind: it is this test's own service
    if (keychain.ok) await createKeychain(service).delete('anthropic');
  });

  it('stores the typed key in the keychain, uses it upstream, shows only where it lives, and disconnect removes it', async (ctx) => {
    if (!keychain.ok) {
      if (process.env.REQUIRE_KEYCHAIN === '1') throw new Error(`REQUIRE_KEYCHAIN=1 but ${keychain.reason}`);
      ctx.skip(`no OS keychain to connect a provider into: ${keychain.reason}`);
    }
    if (!hasTmux) ctx.skip('tmux is not installed: this test runs the TUI in a real terminal (apt-get install tmux)');
    const daemon = d!;
    const screens: string[] = [];
    const seen = async (check: (s: string) => boolean, what: string) => {
      const s = await pane!.waitFor(check, what);
      screens.push(s);
      return s;
    };

    // before: not connected, so a request for it is refused
    expect(await anthropicRefusal(daemon, 'anthropic/claude-sonnet-4-5')).toMatchObject({ status: 400, error: { error: { code: 'provider_not_connected' } } });

    pane = await TmuxPane.start(tuiCommand(daemon.home, { SVC_PROXY_KEYCHAIN_SERVICE: service }), { columns: 100, rows: 30 });
    await seen((s) => s.includes(`● daemon 127.0.0.1:${daemon.port}`), 'the TUI to connect');
    await pane.keys('4');
    await seen((s) => /^anthropic\s+built-in\s+no\s/m.test(s), 'the providers, anthropic not connected');
    await pane.keys('c');
    await seen((s) => s.includes('API key for anthropic:'), 'the hidden field');
    await pane.text(SECRET);
    // hidden while typed
    await seen((s) => !s.includes('Secret_Kc7319') && s.includes(`(hidden, ${SECRET.length} characters)`), 'the key typed, hidden');
    await pane.keys('Enter');
    let screen = await seen((s) => s.includes('anthropic connected'), 'the outcome');
    expect(screen.replace(/\s+/g, ' ')).toContain('key …7319 stored in the OS keychain');
    screen = await seen((s) => /^anthropic\s+built-in\s+yes\s+keychain …7319\s/m.test(s), 'the row: where the key lives');

    // in the keychain service of this test, and in no file
    expect(await createKeychain(service).get('anthropic')).toBe(SECRET);
    const credentialsFile = join(daemon.home, 'credentials.json');
    if (existsSync(credentialsFile)) expect(await readFile(credentialsFile, 'utf8')).not.toContain(SECRET);

    // a request through the proxy reaches the upstream with it
    const res = await daemon.anthropic().messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello from the keychain test' }] });
    expect(res.content.length).toBeGreaterThan(0);
    expect(mock!.requests.at(-1)?.headers['x-api-key']).toBe(SECRET);

    // disconnect from the TUI: the question, then the keychain entry gone
    await pane.keys('d');
    await seen((s) => s.includes('Disconnect anthropic') && s.includes('[y/N]'), 'the question, the groups checked');
    await pane.keys('y');
    await seen((s) => s.includes('anthropic disconnected (removed from keychain)'), 'the disconnect');
    await seen((s) => /^anthropic\s+built-in\s+no\s/m.test(s), 'the row not connected again');
    expect(await createKeychain(service).get('anthropic')).toBeNull();
    expect(await anthropicRefusal(daemon, 'anthropic/claude-sonnet-4-5')).toMatchObject({ status: 400, error: { error: { code: 'provider_not_connected' } } });

    for (const s of screens) expect(s).not.toContain('Secret_Kc7319');
    expect(daemon.log).not.toContain('Secret_Kc7319');
    await pane.keys('q');
    await seen((s) => s.includes('TUI-EXIT=0'), 'the exit');
  });
});
