/**
 * With a realistic state path (macOS's Application Support, here under /tmp) the daemon's
 * credentials.json notice after a connect, a disconnect that removed the key, or an endpoint
 * add/remove runs past the message's two lines at 80 columns: it was cut with …, the path or its
 * chmod command lost. The message now takes the lines it needs; the table keeps its header and a row.
 * In a 7- or 8-row terminal, rows short of them, the outcome keeps its line and the notice the rows
 * left, cut with …: the outcome no longer runs on into the notice, which took its room.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chmodCommand } from '../../src/config/private-mode.js';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { NO_KEYCHAIN_ENV, removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { KEYS, startTui, stopTuiAndDaemon, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await stopTuiAndDaemon(h);
  h = undefined;
  await removeTempDirs();
});

const flat = (frame: string) => frame.replace(/\s+/g, ' ');

/**
 * credentials.json open to others (0644) in a long state path, holding openai's key (endpoint
 * work's is not in it: its removal only finds the file open); the TUI 80 wide on the providers screen.
 */
async function openFileLongPath(rows: number) {
  const stateDir = join(await tempStateDir(), 'Library', 'Application Support', 'svc-proxy');
  await mkdir(stateDir, { recursive: true });
  const path = join(stateDir, 'credentials.json');
  await writeFile(path, `${JSON.stringify({ version: 1, credentials: { openai: 'sk-proj-stored-Secret_Lp1' } })}\n`);
  await chmod(path, 0o644);
  const store = await ConfigStore.open(statePaths(stateDir));
  await store.update((c) => {
    c.endpoints.work = { url: 'http://127.0.0.1:9/v1', format: 'a', hasCredential: true, created: '2025-01-01T00:00:00Z' };
  });
  const daemon = await startInProcess({ stateDir, env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
  h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 80, rows } });
  await h.waitFor((f) => f.includes('anthropic'), 'the list');
  return {
    h,
    made: `Note: ${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`,
    open: `Note: ${path} holds provider credentials and can be read by group or others (0644): ${chmodCommand(path, 0o600)}.`,
  };
}

/**
 * Where the in-process daemon finds no usable keychain (its D-Bus address is dead unless this test
 * process already holds a connection), the key goes to the file after a question; with one it goes
 * to the keychain and the file is only found open. Either way a notice is said whole.
 */
async function storeKey(h: TuiHarness, said: string): Promise<void> {
  const f = await h.waitFor((fr) => fr.includes('No usable OS keychain') || flat(fr).includes(said), 'the insecure-storage question or the outcome');
  if (f.includes('No usable OS keychain')) await h.press('y');
}

/** The outcome's frame: a notice whole, the table's header still there, no secret ever shown. */
async function outcome(h: TuiHarness, said: string, ...notices: string[]) {
  const f = await h.waitFor((fr) => flat(fr).includes(said), 'the outcome');
  // a notice ending the message may go without its full stop
  expect(notices.some((n) => flat(f).includes(n.replace(/\.$/, ''))), `one of:\n${notices.join('\n')}\nin:\n${flat(f)}`).toBe(true);
  expect(f).toMatch(/NAME\s+KIND/);
  for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Lp/);
}

describe('providers screen: a credentials.json notice in a long state path is shown whole at 80 columns', () => {
  it.each([24, 12])('connect, the key going to the file or the keychain (80x%i)', async (rows) => {
    const { h, made, open } = await openFileLongPath(rows);
    await h.press(KEYS.down, KEYS.down, KEYS.down, 'c');
    await h.waitFor((f) => f.includes('API key for gemini:'), 'the prompt');
    await h.type('gm-tui-long-path-Secret_Lp2');
    await h.press(KEYS.enter);
    await storeKey(h, 'gemini connected');
    await outcome(h, 'gemini connected', made, open);
  });

  it.each([24, 12])('a disconnect that removed the key from the file (80x%i)', async (rows) => {
    const { h, made } = await openFileLongPath(rows);
    await h.press(KEYS.down, 'd');
    await h.waitFor((f) => f.includes('Disconnect openai') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await outcome(h, 'openai disconnected', made);
  });

  it.each([24, 12])('removing an endpoint whose key is not in the file: the whole chmod command (80x%i)', async (rows) => {
    const { h, open } = await openFileLongPath(rows);
    await h.press(KEYS.end, 'd');
    await h.waitFor((f) => f.includes('Remove endpoint work') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await outcome(h, 'Endpoint work removed', open);
  });

  it('adding an endpoint with a key, to the file or the keychain (80x24)', async () => {
    const { h, made, open } = await openFileLongPath(24);
    await h.press('e');
    await h.waitFor((f) => f.includes('Add a custom endpoint'), 'the wizard');
    for (const answer of ['gw', 'http://127.0.0.1:9/v1', 'a', '', '', 'sk-gw-added-Secret_Lp3']) {
      await h.type(answer);
      await h.press(KEYS.enter);
    }
    await storeKey(h, 'Endpoint gw added');
    await outcome(h, 'Endpoint gw added', made, open);
  });
});

/** The outcome's frame on a screen too short for the notice: the outcome's line, the notice on the rows after it, cut with …. */
async function cutOutcome(h: TuiHarness, said: RegExp) {
  const f = await h.waitFor((fr) => said.test(fr), 'the outcome');
  const lines = f.split('\n').map((l) => l.trimEnd()).filter(Boolean);
  const at = lines.findIndex((l) => said.test(l));
  expect(lines[at], f).toMatch(new RegExp(`^(✓ )?${said.source}`));
  expect(lines[at + 1], f).toMatch(/^Note: \/\S+\/Library\/Application/);
  expect(lines.at(-1), f).toMatch(/…$/);
  expect(f).toMatch(/NAME\s+KIND/);
  for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Lp/);
}

describe('providers screen: a credentials.json notice in a long state path, 80 columns and too few rows for it', () => {
  it.each([8, 7])('a disconnect that removed the key from the file (80x%i)', async (rows) => {
    const { h } = await openFileLongPath(rows);
    await h.press(KEYS.down, 'd');
    await h.waitFor((f) => f.includes('Disconnect openai') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await cutOutcome(h, /openai disconnected \(removed from file\)\./);
  });

  it.each([8, 7])('removing an endpoint whose key is not in the file (80x%i)', async (rows) => {
    const { h } = await openFileLongPath(rows);
    await h.press(KEYS.end, 'd');
    await h.waitFor((f) => f.includes('Remove endpoint work') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await cutOutcome(h, /Endpoint work removed\./);
  });

  it.each([8, 7])('connect, the key going to the file or the keychain (80x%i)', async (rows) => {
    const { h } = await openFileLongPath(rows);
    await h.press(KEYS.down, KEYS.down, KEYS.down, 'c');
    await h.waitFor((f) => f.includes('API key for gemini:'), 'the prompt');
    await h.type('gm-tui-long-path-Secret_Lp2');
    await h.press(KEYS.enter);
    await storeKey(h, 'gemini connected');
    await cutOutcome(h, /gemini connected \(key …_Lp2 stored in (the OS keychain|the insecure credentials file)\)\./);
  });
});
