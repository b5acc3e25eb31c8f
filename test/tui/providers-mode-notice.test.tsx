/**
 * A connect, disconnect or endpoint add/remove from the TUI that makes credentials.json 0600
 * (group or others could read it), or finds it open, says so in its action message, not only in
 * daemon.log — naming the file, never a value.
 */
import { chmod, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { KEYS, startTui, stopTuiAndDaemon, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await stopTuiAndDaemon(h);
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

/** credentials.json open to others (0644) holding openai's key and endpoint work's, config.json naming work; the TUI on the providers screen. */
async function openFileWithEndpoint() {
  const stateDir = await tempStateDir();
  const path = join(stateDir, 'credentials.json');
  await writeFile(path, `${JSON.stringify({ version: 1, credentials: { openai: 'sk-proj-stored-Secret_Tn3', work: 'sk-work-stored-Secret_Tn4' } })}\n`);
  await chmod(path, 0o644);
  const store = await ConfigStore.open(statePaths(stateDir));
  await store.update((c) => {
    c.endpoints.work = { url: 'http://127.0.0.1:9/v1', format: 'a', hasCredential: true, created: '2025-01-01T00:00:00Z' };
  });
  const daemon = await startInProcess({ stateDir, env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
  h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 200, rows: 30 } });
  await h.waitFor((f) => f.includes('work'), 'the list');
  return { h, path, made: `Note: ${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600` };
}

const flat = (frame: string) => frame.replace(/\s+/g, ' ');

describe('providers screen: disconnect and endpoint add/remove tighten an open credentials.json', () => {
  it('disconnecting a provider whose key is in the file says the daemon made it 0600, as a note', async () => {
    const { h, path, made } = await openFileWithEndpoint();
    await h.press(KEYS.down, 'd');
    await h.waitFor((f) => f.includes('Disconnect openai') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    const f = await h.waitFor((fr) => fr.includes('openai disconnected'), 'the outcome');
    expect(flat(f)).toContain(made);
    expect(f).not.toContain('✓ openai disconnected');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Tn/);
  });

  it('removing an endpoint whose key is in the file says so too', async () => {
    const { h, path, made } = await openFileWithEndpoint();
    await h.press(KEYS.end, 'd');
    await h.waitFor((f) => f.includes('Remove endpoint work') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    const f = await h.waitFor((fr) => fr.includes('Endpoint work removed'), 'the outcome');
    expect(flat(f)).toContain(made);
    expect(f).not.toContain('✓ Endpoint work removed');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Tn/);
  });

  it('adding an endpoint with a key says what the daemon found or did to the file', async () => {
    const { h, path, made } = await openFileWithEndpoint();
    await h.press('e');
    await h.waitFor((f) => f.includes('Add a custom endpoint'), 'the wizard');
    for (const answer of ['gw', 'http://127.0.0.1:9/v1', 'a', '', '', 'sk-gw-added-Secret_Tn5']) {
      await h.type(answer);
      await h.press(KEYS.enter);
    }
    const asked = await h.waitFor((f) => f.includes('No usable OS keychain') || f.includes('Endpoint gw added'), 'the insecure-storage question or the outcome');
    // the key goes to the file (made 0600) once asked, or to a usable keychain (the file, which keeps openai's key, only found open)
    const toFile = !asked.includes('Endpoint gw added');
    if (toFile) await h.press('y');
    const f = await h.waitFor((fr) => fr.includes('Endpoint gw added'), 'the outcome');
    expect(flat(f)).toContain(toFile ? made : `Note: ${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}`);
    expect(f).not.toContain('✓ Endpoint gw added');
    for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Tn/);
  });
});
