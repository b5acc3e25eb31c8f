/** A key create the daemon never answers lets the keyboard go, with the reason, instead of holding it for good. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { holdRequests } from './hold-requests.js';
import { removeTempDirs } from '../daemon/harness.js';
import { KEYS, startTui, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';

// the real wait (15 s) made short; the screen reads it from this module
vi.mock('../../src/tui/keys/create-within.js', async (original) => ({ ...(await original<object>()), CREATE_KEY_WITHIN_MS: 300 }));

let h: TuiHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

describe('keys screen, a create with no answer', () => {
  it('gives up: the name field reopens with the reason, and the screen keys work again', async () => {
    holdRequests('/admin/keys');
    h = await startTui({ initialScreen: 'keys' });
    await h.waitFor((f) => f.includes('Service keys'), 'the screen');
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the name prompt');
    await h.type('stuck');
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('did not answer'), 'the reason');
    expect(f).toContain('Name for the new key: stuck');
    expect(f).toContain('may have been created');
    await h.press(KEYS.escape);
    await h.waitFor((fr) => !fr.includes('Name for the new key:'), 'the field closed');
    await h.press('1');
    await h.waitFor((fr) => showsScreen(fr, '1'), 'the log');
  });
});
