/**
 * credentials.json and tool-keys.json as links into a dotfiles repo: their lock is taken beside
 * the target, where the write lands, so two state dirs linking one file keep each other's keys; a
 * target in a folder this user cannot write in keeps it beside the link, so the write's own error
 * is what is said (as for config.json, lock-path.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { saveToolKey } from '../../src/cli/tools/saved-keys.js';
import { withFileLock } from '../../src/config/file-lock.js';
import { statePaths } from '../../src/config/paths.js';
import { CredentialFile } from '../../src/secrets/file-store.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterEach(removeTempDirs);

interface SecretFile {
  name: string;
  empty: string;
  write(dir: string, entry: string): Promise<unknown>;
  entries(text: string): string[];
}

const FILES: SecretFile[] = [
  {
    name: 'credentials.json',
    empty: '{"version":1,"credentials":{}}\n',
    write: (dir, entry) => new CredentialFile(join(dir, 'credentials.json')).set(entry, `sk-${entry}-Secret_Lk1`),
    entries: (text) => Object.keys((JSON.parse(text) as { credentials: object }).credentials),
  },
  {
    name: 'tool-keys.json',
    empty: '{"version":1,"tools":{}}\n',
    write: (dir, entry) => saveToolKey(statePaths(dir), entry, { id: `key_${entry}`, name: entry, key: `sk-svc-${entry}-Secret_Lk2` }),
    entries: (text) => Object.keys((JSON.parse(text) as { tools: object }).tools),
  },
];

/** Two state dirs whose `name` links the same file in a dotfiles folder. */
async function twoLinks(name: string, text: string, mode = 0o600) {
  const dotfiles = join(await tempStateDir('svc-dotfiles-'), 'svc-proxy');
  await mkdir(dotfiles);
  const target = join(dotfiles, name);
  await writeFile(target, text);
  await chmod(target, mode);
  const [first, second] = [await tempStateDir(), await tempStateDir()];
  for (const dir of [first, second]) await symlink(target, join(dir, name));
  return { dotfiles, target, first, second };
}

/** Whether a waiter's ticket shows up in the lock's line before `settled` says the write is done. */
async function ticketIn(queue: string, settled: () => boolean): Promise<boolean> {
  while (!settled()) {
    if ((await readdir(queue).catch(() => [])).length > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

describe.each(FILES)('the lock of a linked $name', (file) => {
  it('is taken beside the target: a write through another link waits for it, and neither state dir loses the other\'s keys', async () => {
    const { dotfiles, target, first, second } = await twoLinks(file.name, file.empty);

    let pending: Promise<unknown> | undefined;
    await withFileLock(`${target}.lock`, async () => {
      let settled = false;
      pending = file.write(second, 'held').finally(() => (settled = true));
      expect(await ticketIn(`${target}.lock.queue`, () => settled)).toBe(true);
    });
    await pending;

    await Promise.all(Array.from({ length: 8 }, (_, i) => [file.write(first, `a${i}`), file.write(second, `b${i}`)]).flat());
    const expected = ['held', ...Array.from({ length: 8 }, (_, i) => [`a${i}`, `b${i}`]).flat()];
    expect(file.entries(await readFile(target, 'utf8')).sort()).toEqual(expected.sort());
    // nothing left beside the target, nor beside either link, once the keys are written
    expect(await readdir(dotfiles)).toEqual([file.name]);
    for (const dir of [first, second]) expect(await readdir(dir)).toEqual([file.name]);
  });

  it('stays beside the link when this user cannot write in the target\'s folder (a read-only store): the write\'s own error is said', async () => {
    const { dotfiles, first } = await twoLinks(file.name, file.empty, 0o644);
    await chmod(dotfiles, 0o555);
    // root writes anywhere: the write is tried by a child running as nobody (65534), whose state dir it is
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      await chmod(dirname(dotfiles), 0o755);
      await chown(first, 65534, 65534);
    }
    const script = fileURLToPath(new URL('./fixtures/write-secret-file.ts', import.meta.url));
    const which = file.name === 'credentials.json' ? 'credentials' : 'tool-keys';
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, which, first], {
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    await chmod(dotfiles, 0o755);
    expect(child.stderr).toBe('');
    const outcome = JSON.parse(child.stdout) as { code?: string; message: string };
    expect(outcome.message).not.toContain('.lock');
    if (which === 'tool-keys') expect(outcome).toMatchObject({ code: 'tool_keys_unwritable', message: expect.stringContaining(`Cannot save the key in ${join(first, file.name)}`) });
    // the temp file beside the target, as the link resolves (macOS's /var is /private/var)
    else expect(outcome).toMatchObject({ code: 'EACCES', message: expect.stringContaining(await realpath(dotfiles)) });
    expect(await readdir(dotfiles)).toEqual([file.name]);
    expect(child.stdout).not.toMatch(/Secret_/);
  });
});
