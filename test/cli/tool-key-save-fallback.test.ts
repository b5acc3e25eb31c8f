/**
 * A save of tool-keys.json that fails although the check before the key was made passed (the path
 * changed in between): the key is revoked again, through the daemon when one runs, and the save's
 * error is the one reported. The moment between check and save cannot be hit from outside, so the
 * check is made to pass here, as it would have just before the folder appeared.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';

vi.mock('../../src/cli/tools/tool-keys-savable.js', () => ({ checkToolKeysSavable: async () => {} }));

let daemon: InProcessDaemon | undefined;
afterEach(async () => {
  await daemon?.daemon.stop('test done');
  daemon = undefined;
  await removeTempDirs();
});

async function folderInTheWay() {
  const home = await tempStateDir('svc-env-');
  await mkdir(join(home, 'tool-keys.json'));
  const env = { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), SHELL: '/bin/bash' };
  const why = `Cannot save the key in ${join(home, 'tool-keys.json')}: it is a folder, not a file. Move that folder away; the next svc-proxy env or run makes the file anew.`;
  return { home, env, why };
}

const keyList = async (env: Record<string, string | undefined>) => (JSON.parse((await runCli(['key', 'list', '--json'], { env })).stdout) as Array<{ name: string; state: string }>).map((k) => [k.name, k.state]);

describe('a tool key made and then not saved', () => {
  it('without a daemon: revoked again in config.json, and the save error reported, exit 1', async () => {
    const { env, why } = await folderInTheWay();
    const res = await runCli(['env', 'codex'], { env });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/created key "codex" \(key_\w+\) but could not save it in .*tool-keys\.json, so it is revoked again\. Why it could not be saved:\n/);
    expect(res.stderr).toContain(`\nsvc-proxy: ${why}\n`);
    expect(await keyList(env)).toEqual([['codex', 'revoked']]);
  });

  it('with a daemon: revoked again through its admin API, and the save error reported, exit 1', async () => {
    const { home, env, why } = await folderInTheWay();
    daemon = await startInProcess({ stateDir: home, env });
    const res = await runCli(['env', 'codex'], { env });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/created key "codex" \(key_\w+\) but could not save it in .*tool-keys\.json, so it is revoked again\. Why it could not be saved:\n/);
    expect(res.stderr).toContain(`\nsvc-proxy: ${why}\n`);
    expect(await keyList(env)).toEqual([['codex', 'revoked']]);
  });
});
