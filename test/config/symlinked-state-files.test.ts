/**
 * config.json and credentials.json as symlinks into a dotfiles repo (GNU stow, chezmoi,
 * home-manager): writes land in the target, the link stays a link, the target keeps its mode, and
 * a link to nothing is refused by name with a stable code instead of reading as "no file".
 */
import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
