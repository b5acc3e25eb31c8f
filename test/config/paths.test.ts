import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureStateDir, resolveStateDir, statePaths } from '../../src/config/paths.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterEach(removeTempDirs);

describe('state directory', () => {
  it('prefers SVC_PROXY_HOME, then the platform config dir', () => {
    expect(resolveStateDir({ SVC_PROXY_HOME: '/x/y' }, 'linux', '/home/u')).toBe('/x/y');
    expect(resolveStateDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/u')).toBe('/cfg/svc-proxy');
    expect(resolveStateDir({}, 'linux', '/home/u')).toBe('/home/u/.config/svc-proxy');
    expect(resolveStateDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/svc-proxy');
    expect(resolveStateDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toBe(join('C:\\Users\\u\\AppData\\Roaming', 'svc-proxy'));
  });

  it('names every file inside the state dir', () => {
    const p = statePaths('/s');
    for (const [name, value] of Object.entries(p)) if (name !== 'dir') expect(value.startsWith('/s/')).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('creates the directory 0700 and tightens an existing one', async () => {
    const base = await tempStateDir();
    const dir = join(base, 'nested', 'svc-proxy');
    await ensureStateDir(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const { chmod } = await import('node:fs/promises');
    await chmod(dir, 0o755);
    await ensureStateDir(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
  });

  it.skipIf(process.platform === 'win32')('says so when it tightens a directory group or others could enter; not when it makes one or finds it private', async () => {
    const base = await tempStateDir();
    const dir = join(base, 'svc-proxy');
    const notices: string[] = [];
    await ensureStateDir(dir, (m) => notices.push(m));
    await ensureStateDir(dir, (m) => notices.push(m));
    expect(notices).toEqual([]);
    const { chmod } = await import('node:fs/promises');
    await chmod(dir, 0o750);
    await ensureStateDir(dir, (m) => notices.push(m));
    expect(notices).toEqual([`${dir} could be read by group or others (0750); it holds secrets, so svc-proxy made it 0700`]);
  });
});
