/**
 * A provider disconnect that removes nothing (gemini connected only by its variable) still says
 * what the daemon found of credentials.json's mode (open to others), and the message gets the
 * lines for it and the outcome: in a two-line box the note cut the outcome off, or was dropped.
 */
import { chmod, writeFile } from 'node:fs/promises';
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

const flat = (frame: string) => frame.replace(/\s+/g, ' ');

/** gemini's disconnect answered on a `rows`-row screen 80 wide, credentials.json (holding openai's key, not gemini's) open to others. */
async function disconnectEnvOnly(rows: number) {
  const stateDir = await tempStateDir();
  const path = join(stateDir, 'credentials.json');
  await writeFile(path, `${JSON.stringify({ version: 1, credentials: { openai: 'sk-proj-stored-Secret_Nr1' } })}\n`);
  await chmod(path, 0o644);
  // no usable keychain, so the answer is the same wherever this runs: its reason is said too
  const daemon = await startInProcess({ stateDir, env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), GEMINI_API_KEY: 'gm-env-key-Secret_Nr2' } });
  h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 80, rows } });
  await h.waitFor((f) => f.includes('anthropic'), 'the list');
  await h.press(KEYS.down, KEYS.down, KEYS.down, 'd');
  await h.waitFor((f) => f.includes('Disconnect gemini') && f.includes('[y/N]'), 'the question');
  await h.press('y');
  // without a usable keychain (a dead D-Bus address, unless this test process already holds a
  // connection) the outcome also says the keychain could not be checked
  const f = await h.waitFor((fr) => /Nothing removed: gemini|gemini has no stored key to remove/.test(flat(fr)), 'the outcome');
  for (const frame of h.ui.frames) expect(frame).not.toMatch(/Secret_Nr/);
  return { f, notice: `Note: ${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}.` };
}

describe('providers screen: a disconnect that removes nothing says what the daemon found of credentials.json', () => {
  it('at 80x24 the notice and the whole outcome after it', async () => {
    const { f, notice } = await disconnectEnvOnly(24);
    const said = flat(f);
    const outcomeAt = said.indexOf(notice) + notice.length;
    expect(said.indexOf(notice)).toBeGreaterThanOrEqual(0);
    const after = said.slice(outcomeAt);
    expect(after).toMatch(/^ (Nothing removed: gemini is connected|gemini has no stored key to remove; it is connected) through GEMINI_API_KEY in the daemon's environment, which svc-proxy does not change \(unset it where the daemon is started\)/);
    if (after.includes('could not be checked')) expect(after).toContain('if it holds a key for gemini, remove it there.');
  });

  // the notice has the fix and comes first; the outcome's start follows it, its end cut where the rows run out
  it.each([9, 8])('at 80x%i the notice whole and the outcome from its start, the table keeping its header and a row', async (rows) => {
    const { f, notice } = await disconnectEnvOnly(rows);
    expect(flat(f)).toMatch(new RegExp(`${notice.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (Nothing removed: gemini is connected|gemini has no stored key)`));
    expect(f).toMatch(/NAME\s+KIND/);
  });
});
