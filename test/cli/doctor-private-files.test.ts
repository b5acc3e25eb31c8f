/**
 * `svc-proxy doctor` on who may read the state files that hold secrets: the state directory,
 * credentials.json (a link's target), tool-keys.json and admin-token are their owner's only, or a
 * warning names the file, its mode and the chmod to run — a warning, not a failure (exit 0 for it).
 */
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { privateFileFindings } from '../../src/cli/doctor/private-files.js';
import { removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';

afterEach(removeTempDirs);

describe.skipIf(process.platform === 'win32')('doctor: state files that hold secrets', () => {
  it('all private: one ok line; no state dir yet: nothing to say', async () => {
    const dir = await tempStateDir();
    await writeFile(join(dir, 'credentials.json'), '{}', { mode: 0o600 });
    expect(await privateFileFindings(statePaths(dir))).toEqual([{ check: 'state files', mark: 'ok', text: `${dir} and the secrets in it are this user's only` }]);
    expect(await privateFileFindings(statePaths(join(dir, 'not-yet')))).toEqual([]);
    expect(await privateFileFindings(statePaths(dir), 'win32')).toEqual([]);
  });

  it('an open directory and each open secret file are warnings with the chmod; a link names its target', async () => {
    const dir = await tempStateDir();
    await chmod(dir, 0o755);
    const dotfiles = join(await tempStateDir('svc-dotfiles-'), 'dot files');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'credentials.json');
    await writeFile(target, '{}', { mode: 0o644 });
    await chmod(target, 0o644);
    await symlink(target, join(dir, 'credentials.json'));
    await writeFile(join(dir, 'tool-keys.json'), '{}');
    await chmod(join(dir, 'tool-keys.json'), 0o640);
    await writeFile(join(dir, 'admin-token'), 'x', { mode: 0o600 });
    await writeFile(join(dir, 'config.json'), '{}');
    await chmod(join(dir, 'config.json'), 0o644); // hashes only: not a finding
    expect(await privateFileFindings(statePaths(dir))).toEqual([
      { check: 'state directory', mark: 'warn', text: `${dir} can be entered by group or others (0755); it holds secrets`, fix: `chmod 700 ${dir}` },
      { check: 'state files', mark: 'warn', text: `${join(dir, 'credentials.json')} (a link to ${target}) can be read by group or others (0644); it holds provider credentials`, fix: `chmod 600 '${target}'` },
      { check: 'state files', mark: 'warn', text: `${join(dir, 'tool-keys.json')} can be read by group or others (0640); it holds service keys`, fix: `chmod 600 ${join(dir, 'tool-keys.json')}` },
    ]);
  });

  it('svc-proxy doctor shows them, and they alone do not fail it', async () => {
    const dir = await tempStateDir();
    const xdg = await tempStateDir('svc-doctor-xdg-');
    await writeFile(join(dir, 'credentials.json'), '{}');
    await chmod(join(dir, 'credentials.json'), 0o644);
    const res = await runCli(['doctor', '--json'], { env: { SVC_PROXY_HOME: dir, XDG_CONFIG_HOME: xdg, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    const findings = (JSON.parse(res.stdout) as { findings: Array<{ check: string; mark: string; fix?: string }> }).findings;
    const mine = findings.filter((f) => f.check === 'state files');
    expect(mine).toEqual([expect.objectContaining({ mark: 'warn', fix: `chmod 600 ${join(dir, 'credentials.json')}` })]);
    // exit 1 here comes from the daemon that is not running, not from this warning
    expect(findings.filter((f) => f.mark === 'fail').map((f) => f.check)).toEqual(['daemon']);
  });
});
