/**
 * config.json that cannot be read at all — a folder, a file this user may not read, a file far too
 * big to be a config — is refused with a stable code and a message naming the file, by the
 * daemon's start, by the reload of a hand edit (the loaded config stays) and by `config check`.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/errors.js';
import { statePaths } from '../../src/config/paths.js';
import { CONFIG_SIZE_CAP } from '../../src/config/size-cap.js';
import { ConfigStore, readTextOrNull } from '../../src/config/store.js';
import { NO_KEYCHAIN_ENV, removeTempDirs, runCli, tempStateDir } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';

const daemons: InProcessDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.daemon.stop('test done')));
  await removeTempDirs();
});

/** A config.json of 9 MB (sparse: no 9 MB written to the disk). */
async function oversized(file: string): Promise<void> {
  await writeFile(file, '{"version":2}');
  await truncate(file, 9 * 1024 * 1024);
}

describe('a config.json that cannot be read', () => {
  it('a folder in its place: config_unreadable, naming the path, at open and in config check', async () => {
    const dir = await tempStateDir();
    const file = statePaths(dir).config;
    await mkdir(file);
    const err = await ConfigStore.open(statePaths(dir)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err).toMatchObject({ code: 'config_unreadable', message: expect.stringContaining(`${file}: it is a folder`) });
    expect((err as Error).message).not.toMatch(/EISDIR/);
    const check = await runCli(['config', 'check'], { env: { SVC_PROXY_HOME: dir } });
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(`${file}: it is a folder`);
  });

  it('one whose path runs through a file: config_unreadable (config_invalid is for its content), naming the path', async () => {
    const dir = await tempStateDir();
    const file = join(dir, 'not-a-folder', 'config.json');
    await writeFile(join(dir, 'not-a-folder'), 'x');
    await expect(readTextOrNull(file)).rejects.toMatchObject({ code: 'config_unreadable', message: expect.stringContaining(`Cannot read ${file}: part of its path is a file`) });
  });

  it('one this user may not read: config_unreadable, naming the path', async () => {
    const dir = await tempStateDir();
    const file = statePaths(dir).config;
    await writeFile(file, '{"version":2}');
    await chmod(file, 0o000);
    if (process.getuid?.() !== 0) {
      await expect(ConfigStore.open(statePaths(dir))).rejects.toMatchObject({ code: 'config_unreadable', message: expect.stringContaining(`Cannot read ${file}: this user may not read it`) });
      return;
    }
    // root reads anything: the same open, from a child running as nobody (65534)
    await chmod(dir, 0o755);
    const script = fileURLToPath(new URL('./fixtures/open-config.ts', import.meta.url));
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, dir], { uid: 65534, gid: 65534, encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ code: 'config_unreadable', message: expect.stringContaining(`Cannot read ${file}: this user may not read it (EACCES)`) });
  });

  it('one over the size cap: config_too_large naming the size and the cap, at open, in config check and at the daemon start', async () => {
    expect(CONFIG_SIZE_CAP).toBe(8 * 1024 * 1024);
    const dir = await tempStateDir();
    const file = statePaths(dir).config;
    await oversized(file);
    const err = await ConfigStore.open(statePaths(dir)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err).toMatchObject({ code: 'config_too_large' });
    expect((err as Error).message).toBe(
      `${file} is 9.0 MB (9437184 bytes), over the 8.0 MB a config.json may have: not read. Is it the right file? Restore config.json.bak or move it away.`,
    );
    const check = await runCli(['config', 'check'], { env: { SVC_PROXY_HOME: dir } });
    expect(check).toMatchObject({ code: 1, stderr: `svc-proxy: ${(err as Error).message}\n` });
    await expect(startInProcess({ stateDir: dir, env: NO_KEYCHAIN_ENV })).rejects.toMatchObject({ code: 'config_too_large' });
  });

  it('a hand edit that makes it too large keeps the loaded config, and the daemon log says why', async () => {
    const dir = await tempStateDir();
    const file = statePaths(dir).config;
    await writeFile(file, '{"version":2,"settings":{"drainTimeoutMs":1234}}');
    const d = await startInProcess({ stateDir: dir, env: NO_KEYCHAIN_ENV, stateFileWatch: { pollMs: 20, watchDirectory: false } });
    daemons.push(d);
    await rm(file);
    await oversized(file);
    const reload = await d.admin('POST', '/admin/config/reload');
    expect(reload.status).toBe(409);
    expect(reload.json()).toMatchObject({ error: { code: 'config_too_large' } });
    expect(d.daemon.store.current().settings.drainTimeoutMs).toBe(1234);
    expect(d.logLines.join('\n')).toContain(`config.json edit not applied, keeping the last good config: ${file} is 9.0 MB`);
  });
});
