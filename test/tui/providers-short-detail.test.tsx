/**
 * In a short terminal the selected row's detail gets fewer rows than its four lines: it shows the
 * first of them, each on its own row. In a box shorter than its lines Ink drew two on one row
 * ("  last error  -issing · models -", the credential line under the last error's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { startTui, stopTuiAndDaemon, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await stopTuiAndDaemon(h);
  h = undefined;
  await removeTempDirs();
});

describe('providers screen: the detail in fewer rows than its lines', () => {
  it('at 80x10 its first lines whole, the name then the base URL', async () => {
    const daemon = await startInProcess({ env: NO_KEYCHAIN_ENV });
    h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 80, rows: 10 } });
    const f = await h.waitFor((fr) => fr.includes('anthropic (built-in)'), 'the detail');
    const lines = f.split('\n');
    const name = lines.findIndex((l) => l.startsWith('anthropic (built-in)'));
    expect(lines[name + 1]).toMatch(/^ {2}base URL {4}https:\/\/api\.anthropic\.com\s*$/);
    expect(f).not.toMatch(/last error.*models|credential.*last error/);
  });
});
