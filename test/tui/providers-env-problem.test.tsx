/**
 * A provider whose environment variable is set but unusable is not merely "not connected" on the
 * Providers screen: its row says the variable is unusable, and the selected row's lines name the
 * variable and what is wrong with it (never its value), as `provider list` and `status` do — at a
 * wide and at a narrow width; and a key stored meanwhile is said not to be used. A stored key that
 * fails the same checks says so in its own words.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  await removeTempDirs();
});

const QUOTED = '"sk-ant-quoted-in-env-Secret_Tu1"';

async function providersAt(columns: number, rows = 24): Promise<string> {
  const daemon = await startInProcess({ env: { SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), ANTHROPIC_API_KEY: QUOTED } });
  h = await startTui({ daemon, initialScreen: 'providers', size: { columns, rows } });
  return h.waitFor((f) => f.includes('ANTHROPIC_API_KEY'), 'the variable named');
}

describe('providers screen: an unusable credential variable', () => {
  it('a wide terminal: the row says so, the detail gives the whole reason', async () => {
    const f = await providersAt(160);
    expect(lines(f).find((l) => l.startsWith('anthropic '))).toMatch(/^anthropic\s+built-in\s+no\s+env var unusable\s/);
    expect(f.replace(/\s+/g, ' ')).toContain(
      'credential ANTHROPIC_API_KEY, which the daemon reads for anthropic, is wrapped in quotes (give the key without them); its value is not used: fix or unset it where the daemon is started, then restart it.',
    );
    expect(f).not.toContain('Secret_Tu1');
  });

  it('a narrow terminal: the variable and what is wrong stay in view, wrapped', async () => {
    const f = await providersAt(50);
    for (const l of lines(f)) expect(l.length).toBeLessThanOrEqual(50);
    const joined = f.replace(/\s+/g, ' ');
    expect(joined).toContain('credential ANTHROPIC_API_KEY, which the daemon reads for anthropic, is wrapped in quotes');
    expect(f).not.toContain('Secret_Tu1');
  });

  it('at 50×24 the reason shows whole, its fix included, in the lines a message takes', async () => {
    const f = await providersAt(50);
    for (const l of lines(f)) expect(l.length, f).toBeLessThanOrEqual(50);
    expect(f.replace(/\s+/g, ' '), f).toContain('its value is not used: fix or unset it where the daemon is started, then restart it.');
  });

  it('at 40×15 the reason takes the rows there are and says it is cut with …', async () => {
    const f = await providersAt(40, 15);
    const all = lines(f);
    for (const l of all) expect(l.length, f).toBeLessThanOrEqual(40);
    expect(all.length, f).toBeLessThanOrEqual(14);
    const from = all.findIndex((l) => l.trim().startsWith('credential ANTHROPIC_API_KEY'));
    expect(from, f).toBeGreaterThan(0);
    const reason = all.slice(from).map((l) => l.trim()).filter((l) => l !== '');
    // the rows over the message's room, all of them, the last saying it is cut
    expect(reason.length, f).toBe(3);
    expect(reason.at(-1)!.endsWith('…'), f).toBe(true);
  });

  it('a key connected while the variable is unusable: stored, but said not to be used, and why (not a ✓)', async () => {
    // In-process, the keychain is this test process's: none in a bare shell (the key goes to the
    // insecure file once asked), the test Secret Service under npm test — a service of its own there,
    // so the key it keeps reaches no other test's daemon.
    const daemon = await startInProcess({ env: { ...NO_KEYCHAIN_ENV, ANTHROPIC_API_KEY: QUOTED, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 160, rows: 30 } });
    await h.waitFor((f) => f.includes('ANTHROPIC_API_KEY'), 'the variable named');
    await h.press('c');
    await h.waitFor((f) => f.includes('API key for anthropic:'), 'the prompt');
    await h.type('sk-ant-typed-in-tui-7788');
    await h.press(KEYS.enter);
    const asked = await h.waitFor((f) => f.includes('No usable OS keychain') || f.includes('but not used while'), 'the insecure-storage question or the outcome');
    if (!asked.includes('but not used while')) await h.press('y');
    const f = await h.waitFor((fr) => fr.includes('but not used while'), 'the outcome');
    const said = f.replace(/\s+/g, ' ');
    expect(said, f).toMatch(
      /anthropic: key …7788 stored in (the insecure credentials file|the OS keychain), but not used while ANTHROPIC_API_KEY is set in the daemon's environment and unusable\. Note: ANTHROPIC_API_KEY, which the daemon reads for anthropic, is wrapped in quotes/,
    );
    // an info, not a success: the provider is still not connected
    expect(f, f).not.toContain('✓');
    expect(lines(f).find((l) => l.startsWith('anthropic ')), f).toMatch(/^anthropic\s+built-in\s+no\s/);
    expect(f).not.toContain('Secret_Tu1');
  });
});

describe('providers screen: an unusable stored key', () => {
  it('the row says the stored key is unusable, the detail says where it is and the fix', async () => {
    // a key of its own keychain service is absent, so the daemon reads the hand-edited file
    const stateDir = await tempStateDir();
    await writeFile(join(stateDir, 'credentials.json'), JSON.stringify({ version: 1, credentials: { anthropic: QUOTED } }), { mode: 0o600 });
    const daemon = await startInProcess({ stateDir, env: { SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 160, rows: 24 } });
    const f = await h.waitFor((frame) => frame.includes('credentials file'), 'where the key is stored');
    expect(lines(f).find((l) => l.startsWith('anthropic '))).toMatch(/^anthropic\s+built-in\s+no\s+stored key unusable\s/);
    expect(f.replace(/\s+/g, ' ')).toContain('stored in the credentials file is wrapped in quotes (give the key without them); it is not used: store it again with `svc-proxy provider connect anthropic`.');
    expect(f).not.toContain('Secret_Tu1');
  });
});
