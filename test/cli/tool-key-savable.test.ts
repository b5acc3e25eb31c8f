/**
 * `svc-proxy env <tool>` finds out that tool-keys.json cannot take a new key before it makes one,
 * so none is made and none has to be revoked again: a link to nothing, or a link into a folder
 * this user cannot write in (a folder, or a link to one, is in env.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, readdir, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';

let home: string;
let env: Record<string, string>;
beforeEach(async () => {
  home = await tempStateDir('svc-env-');
  env = { SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), SHELL: '/bin/bash' };
});
afterEach(removeTempDirs);

const keyList = async () => (JSON.parse((await runCli(['key', 'list', '--json'], { env })).stdout) as Array<{ name: string; state: string }>).map((k) => [k.name, k.state]);

describe('tool-keys.json that cannot take a new key', () => {
  it('a link to nothing: refused with dangling_symlink, and no key is made', async () => {
    const link = join(home, 'tool-keys.json');
    await symlink(join(home, 'moved-dotfiles', 'tool-keys.json'), link);
    const res = await runCli(['env', 'codex', '--json'], { env });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ error: { code: 'dangling_symlink', message: expect.stringContaining(`${link} is a symbolic link to a file that does not exist`) } });
    expect(res.stderr).not.toContain('created key');
    expect(await keyList()).toEqual([]);
  });

  it('a link into a folder this user cannot write in: refused with tool_keys_unwritable, and no key is made', async () => {
    const dotfiles = join(await tempStateDir('svc-dotfiles-'), 'svc-proxy');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'tool-keys.json');
    await writeFile(target, '{"version":1,"tools":{}}\n');
    await chmod(target, 0o644);
    const link = join(home, 'tool-keys.json');
    await symlink(target, link);
    await chmod(dotfiles, 0o555);
    // root writes anywhere: the command runs as nobody (65534), whose state dir it is
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      await chmod(dirname(dotfiles), 0o755);
      await chown(home, 65534, 65534);
    }
    const script = fileURLToPath(new URL('./fixtures/cli-as-user.ts', import.meta.url));
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, 'env', 'codex', '--json'], {
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
      env: { ...env, PATH: process.env.PATH },
      encoding: 'utf8',
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    await chmod(dotfiles, 0o755);
    expect(child.status, child.stderr).toBe(1);
    expect(JSON.parse(child.stdout)).toEqual({
      error: {
        code: 'tool_keys_unwritable',
        // the folder as the link resolves (macOS's /var is /private/var)
        message: `Cannot save the key in ${link}: EACCES: permission denied, access '${await realpath(dotfiles)}'. Fix that path, or move it away; the next svc-proxy env or run makes the file anew.`,
        file: link,
      },
    });
    expect(child.stderr).not.toContain('created key');
    expect(await keyList()).toEqual([]);
    expect(await readdir(dotfiles)).toEqual(['tool-keys.json']);
  });
});
