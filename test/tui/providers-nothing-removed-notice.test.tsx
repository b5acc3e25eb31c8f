/**
 * A provider disconnect that removes nothing (gemini connected only by its variable) still says
 * what the daemon found of credentials.json's mode (open to others), and the message gets the
 * lines for it and the outcome: in a two-line box the note cut the outcome off, or was dropped.
 * The outcome comes first: with the notice first, a 7-row terminal showed no word of it.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  const outcomeStart = /(Nothing removed: gemini is connected|gemini has no stored key to remove; it is connected)/;

  it('at 80x24 the whole outcome, then the notice whole', async () => {
    const { f, notice } = await disconnectEnvOnly(24);
    const said = flat(f);
    const noticeAt = said.indexOf(notice);
    expect(noticeAt).toBeGreaterThanOrEqual(0);
    const before = said.slice(0, noticeAt);
    expect(before).toMatch(/(Nothing removed: gemini is connected|gemini has no stored key to remove; it is connected) through GEMINI_API_KEY in the daemon's environment, which svc-proxy does not change \(unset it where the daemon is started\)/);
    if (before.includes('could not be checked')) expect(before).toContain('if it holds a key for gemini, remove it there.');
  });

  // the outcome keeps its first line; the notice, which has the fix, the rows after it
  it('at 80x9 the outcome from its start, then the notice whole, the table keeping its header and a row', async () => {
    const { f, notice } = await disconnectEnvOnly(9);
    expect(flat(f)).toMatch(new RegExp(`${outcomeStart.source}.*… ${notice.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(f).toMatch(/NAME\s+KIND/);
  });

  // at 7 rows the notice first left no row for the outcome
  it.each([8, 7])('at 80x%i the outcome on the first line, the notice on the rows left, cut with …', async (rows) => {
    const { f } = await disconnectEnvOnly(rows);
    const lines = f.split('\n').map((l) => l.trimEnd());
    const at = lines.findIndex((l) => outcomeStart.test(l));
    expect(at, f).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1], f).toMatch(/^Note: \/\S*credentials\.json holds provider credentials/);
    expect(lines.filter(Boolean).at(-1), f).toMatch(/…$/);
    expect(f).toMatch(/NAME\s+KIND/);
  });
});
