/**
 * At start the daemon makes what holds secrets its owner's only and says so in daemon.log: the
 * state directory (0700) and the admin token (0600, a link's target too).
 */
import { chmod, lstat, mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs, tempStateDir, testKeychainService } from './harness.js';
import { startInProcess, type InProcessDaemon } from './in-process.js';

const daemons: InProcessDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.daemon.stop('test done')));
  await removeTempDirs();
});

async function start(dir: string): Promise<InProcessDaemon> {
  const d = await startInProcess({ stateDir: dir, env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
  daemons.push(d);
  return d;
}

describe.skipIf(process.platform === 'win32')('state files private at daemon start', () => {
  it('a state directory group or others could enter is made 0700, and daemon.log says so', async () => {
    const dir = await tempStateDir();
    await chmod(dir, 0o755);
    const d = await start(dir);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(d.logLines.filter((l) => l.includes('0755'))).toEqual([`warn ${dir} could be read by group or others (0755); it holds secrets, so svc-proxy made it 0700`]);
  });

  it('an admin-token linked to a file others can read: the target is made 0600, the link kept, daemon.log says so', async () => {
    const dir = await tempStateDir();
    const elsewhere = join(await tempStateDir('svc-elsewhere-'), 'svc-proxy');
    await mkdir(elsewhere);
    const target = join(elsewhere, 'admin-token');
    await writeFile(target, 'old\n');
    await chmod(target, 0o644);
    const link = join(dir, 'admin-token');
    await symlink(target, link);
    const d = await start(dir);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(d.logLines.filter((l) => l.includes('admin-token'))).toEqual([
      `warn ${link} (a link to ${target}) could be read by group or others (0644); it holds the admin API token, so svc-proxy made it 0600`,
    ]);
    expect(d.logLines.join('\n')).not.toContain(d.token);
  });
});
