/**
 * A connect from the TUI that makes credentials.json 0600 (group or others could read it) says so
 * in its action message, not only in daemon.log — naming the file, never a value.
 */
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { KEYS, startTui, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  await h?.d.daemon.stop();
  h = undefined;
  await removeTempDirs();
});

describe('providers screen: connect tightens an open credentials.json', () => {
  it('the message says the daemon made the file 0600, as a note, not a plain ✓', async () => {
    const stateDir = await tempStateDir();
    const path = join(stateDir, 'credentials.json');
    await writeFile(path, `${JSON.stringify({ version: 1, credentials: { gemini: 'gm-stored-before-Secret_Tn1' } })}\n`);
    await chmod(path, 0o644);
    // in-process the keychain is this process's: with none the key goes to the file once asked,
    // with one it goes there and out of the file (gemini is in it); both write the file, so both make it 0600
    const daemon = await startInProcess({ stateDir, env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 200, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press(KEYS.end, 'c');
    await h.waitFor((f) => f.includes('API key for gemini:'), 'the prompt');
    await h.type('gm-tui-mode-notice-Secret_Tn2');
    await h.press(KEYS.enter);
    const asked = await h.waitFor((f) => f.includes('No usable OS keychain') || f.includes('gemini connected'), 'the insecure-storage question or the outcome');
    if (!asked.includes('gemini connected')) await h.press('y');
    const f = await h.waitFor((fr) => fr.includes('gemini connected'), 'the outcome');
    expect(f.replace(/\s+/g, ' ')).toContain(`Note: ${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`);
    expect(f).not.toContain('✓ gemini connected');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Tn/);
  });
});
