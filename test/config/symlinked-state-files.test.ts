/**
 * config.json and credentials.json as symlinks into a dotfiles repo (GNU stow, chezmoi,
 * home-manager): writes land in the target, the link stays a link, the target keeps its mode, and
 * a link to nothing is refused by name with a stable code instead of reading as "no file"; the
 * config lock is taken where the write lands.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/config/atomic-write.js';
import { ConfigFileError } from '../../src/config/errors.js';
import { DanglingLinkError } from '../../src/config/link-target.js';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { CredentialFile } from '../../src/secrets/file-store.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterEach(removeTempDirs);

/** A state dir whose `name` is a link to the same name in a dotfiles folder elsewhere. */
async function linkedFile(name: string, text: string | null, mode = 0o600) {
  const dir = await tempStateDir();
  const dotfiles = join(await tempStateDir('svc-dotfiles-'), 'svc-proxy');
  await mkdir(dotfiles);
  const target = join(dotfiles, name);
  if (text !== null) {
    await writeFile(target, text);
    await chmod(target, mode);
  }
  await symlink(target, join(dir, name));
  return { dir, dotfiles, target, link: join(dir, name) };
}

describe('state files that are symlinks', () => {
  it('writeFileAtomic writes the target, keeps the link and the target mode, and leaves no temp file in either folder', async () => {
    const { dir, dotfiles, target, link } = await linkedFile('f.json', 'one', 0o644);
    await writeFileAtomic(link, 'two', { mode: 0o600, backupPath: join(dir, 'f.json.bak') });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('two');
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    expect(await readFile(join(dir, 'f.json.bak'), 'utf8')).toBe('one');
    expect((await readdir(dotfiles)).sort()).toEqual(['f.json']);
    expect((await readdir(dir)).sort()).toEqual(['f.json', 'f.json.bak']);
  });

  it('writeFileAtomicSync (daemon.json) writes the target the same way, the link and the target mode kept', async () => {
    const { dir, dotfiles, target, link } = await linkedFile('daemon.json', 'one', 0o640);
    writeFileAtomicSync(link, 'two');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('two');
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect(await readdir(dotfiles)).toEqual(['daemon.json']);
    expect(await readdir(dir)).toEqual(['daemon.json']);
    const gone = await linkedFile('daemon.json', null);
    expect(() => writeFileAtomicSync(gone.link, 'x')).toThrow(DanglingLinkError);
  });

  it('a change to a linked config.json is written in the dotfiles repo, the link kept', async () => {
    const { dir, target, link } = await linkedFile('config.json', '{"version":2,"settings":{"port":5000}}\n', 0o640);
    const store = await ConfigStore.open(statePaths(dir));
    expect(store.current().settings.port).toBe(5000);
    await store.update((c) => void (c.settings.port = 6000));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(target, 'utf8')).settings.port).toBe(6000);
    expect((await stat(target)).mode & 0o777).toBe(0o640);
    expect(JSON.parse(await readFile(join(dir, 'config.json.bak'), 'utf8')).settings.port).toBe(5000);
  });

  it('credentials.json through a link stays 0600 at the target', async () => {
    const { target, link } = await linkedFile('credentials.json', '{"version":1,"credentials":{}}\n');
    const file = new CredentialFile(link);
    await file.set('openai', 'sk-test');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await new CredentialFile(target).get('openai')).toBe('sk-test');
  });

  it('a link to nothing is refused with code dangling_symlink, naming the link, for config.json and credentials.json', async () => {
    const config = await linkedFile('config.json', null);
    const err = await ConfigStore.open(statePaths(config.dir)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err).toMatchObject({ code: 'dangling_symlink' });
    expect((err as Error).message).toContain(config.link);
    expect((err as Error).message).not.toMatch(/ENOENT/);
    await expect(lstat(config.target)).rejects.toThrow(); // nothing created in its place

    const creds = await linkedFile('credentials.json', null);
    await expect(new CredentialFile(creds.link).get('openai')).rejects.toBeInstanceOf(DanglingLinkError);
    await expect(new CredentialFile(creds.link).set('openai', 'sk-test')).rejects.toMatchObject({ code: 'dangling_symlink' });
    await expect(writeFileAtomic(creds.link, 'x')).rejects.toMatchObject({ code: 'dangling_symlink', message: expect.stringContaining(creds.link) });
    await expect(lstat(creds.target)).rejects.toThrow();
  });
});

describe('the config lock of a linked config.json', () => {
  it('is taken beside the target, so two state dirs linking one file lose none of each other\'s changes', async () => {
    const first = await linkedFile('config.json', '{"version":2}\n');
    const second = await tempStateDir();
    await symlink(first.target, join(second, 'config.json'));
    const [a, b] = await Promise.all([ConfigStore.open(statePaths(first.dir)), ConfigStore.open(statePaths(second))]);

    const held = await b.update(() => [existsSync(`${first.target}.lock`), existsSync(join(second, 'config.json.lock'))]);
    expect(held).toEqual([true, false]);

    const group = { created: '2025-01-01T00:00:00Z', models: [] };
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => [
        a.update((c) => void (c.groups[`a${i}`] = group)),
        b.update((c) => void (c.groups[`b${i}`] = group)),
      ]).flat(),
    );
    const onDisk = JSON.parse(await readFile(first.target, 'utf8')) as { groups: Record<string, unknown> };
    expect(Object.keys(onDisk.groups).sort()).toEqual([...Array.from({ length: 8 }, (_, i) => `a${i}`), ...Array.from({ length: 8 }, (_, i) => `b${i}`)].sort());
    // nothing left beside the target once the changes are written
    expect(await readdir(first.dotfiles)).toEqual(['config.json']);
  });

  it('stays beside the link when this user cannot write in the target\'s folder (a read-only store): re-reading still works', async () => {
    const { dir, dotfiles } = await linkedFile('config.json', '{"version":2,"settings":{"port":5050}}\n', 0o644);
    await chmod(dotfiles, 0o555);
    if (process.getuid?.() !== 0) {
      const store = await ConfigStore.open(statePaths(dir));
      expect(await store.reload()).toBe(false);
      await chmod(dotfiles, 0o755);
      return;
    }
    // root writes anywhere: the same re-read, from a child running as nobody (65534), whose state dir it is
    await chmod(dirname(dotfiles), 0o755);
    await chown(dir, 65534, 65534);
    const script = fileURLToPath(new URL('./fixtures/reload-config.ts', import.meta.url));
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, dir], { uid: 65534, gid: 65534, encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ reloaded: false, port: 5050 });
    expect(await readdir(dotfiles)).toEqual(['config.json']);
  });
});
