/**
 * Connecting a provider from the TUI with a real OS keychain (Secret Service): the key goes from
 * the hidden field to the daemon and into the keychain, is listed as "keychain …last4", and
 * disconnect removes it. Skipped with a reason where no keychain is usable (fails under
 * REQUIRE_KEYCHAIN=1), like the other keychain tests.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createKeychain } from '../../src/secrets/keychain.js';
import { keychainTestsEnabled, removeTempDirs, testKeychainService } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { KEYS, startTui, stopTuiAndDaemon, type TuiHarness } from './harness.js';

const enabled = await keychainTestsEnabled('TUI provider connect through the OS keychain');

let h: TuiHarness | undefined;
afterEach(async () => {
  await stopTuiAndDaemon(h);
  h = undefined;
});
afterAll(removeTempDirs);

describe.skipIf(!enabled)('providers screen with the OS keychain', () => {
  it('stores the key in the keychain, shows only where it lives, and disconnect removes it', async () => {
    const service = testKeychainService();
    const d = await startInProcess({ env: { SVC_PROXY_KEYCHAIN_SERVICE: service } });
    h = await startTui({ daemon: d, initialScreen: 'providers', size: { columns: 120, rows: 30 } });
    const secret = 'gm-tui-keychain-secret-4242';
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press(KEYS.end, 'c');
    await h.waitFor((f) => f.includes('API key for gemini:'), 'the prompt');
    await h.type(secret);
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('gemini connected'), 'the connect');
    expect(f).toContain('key …4242 stored in the OS keychain');
    await h.waitFor((fr) => /^gemini\s+built-in\s+yes\s+keychain …4242/m.test(fr), 'the row');
    for (const frame of h.ui.frames) expect(frame).not.toContain(secret);
    expect(await createKeychain(service).get('gemini')).toBe(secret);

    await h.press('d');
    await h.waitFor((fr) => fr.includes('Disconnect gemini') && fr.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await h.waitFor((fr) => fr.includes('gemini disconnected (removed from keychain)'), 'the disconnect');
    expect(await createKeychain(service).get('gemini')).toBeNull();
  });
});
