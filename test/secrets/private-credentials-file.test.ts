/**
 * credentials.json stays its owner's only, as ssh wants of a private key: one that group or others
 * can read is warned of when read (daemon.log, the CLI's stderr), once, with the chmod to run, and
 * made 0600 when written — a link's target too, which would otherwise keep its own mode. No message
 * ever carries a value.
 */
import { chmod, lstat, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { CredentialFile } from '../../src/secrets/file-store.js';
import { NO_KEYCHAIN_ENV, removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';

const daemons: InProcessDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.daemon.stop('test done')));
  await removeTempDirs();
});

const SECRET = 'sk-proj-private-file-Secret_4242';
const FILE_TEXT = `${JSON.stringify({ version: 1, credentials: { openai: SECRET } })}\n`;

async function credentialsFile(mode: number, where: 'plain' | 'linked' = 'plain') {
  const dir = await tempStateDir();
  const path = join(dir, 'credentials.json');
  let target = path;
  if (where === 'linked') {
    const dotfiles = join(await tempStateDir('svc-dotfiles-'), 'svc-proxy');
    await mkdir(dotfiles);
    target = join(dotfiles, 'credentials.json');
    await symlink(target, path);
  }
  await writeFile(target, FILE_TEXT);
  await chmod(target, mode);
  return { dir, path, target };
}

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('credentials.json that is not JSON', () => {
  it('is credentials_invalid naming the file, without quoting it; the CLI says so in --json with exit 1', async () => {
    const dir = await tempStateDir();
    const path = join(dir, 'credentials.json');
    await writeFile(path, '{"credentials": {"openai": "sk-proj-Broken_Secret_Nr9"', { mode: 0o600 });
    const err = await new CredentialFile(path).readAll().then(() => undefined, (e: unknown) => e);
    expect(err).toMatchObject({ code: 'credentials_invalid', file: path, message: `${path} is not valid JSON; fix or delete it and connect again.` });
    const res = await runCli(['provider', 'disconnect', 'openai', '--json'], { env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ error: { code: 'credentials_invalid', file: path } });
    expect(res.stdout + res.stderr).not.toContain('Broken_Secret');
  });
});

describe('credentials.json that group or others can read', () => {
  it('is warned of once however often it is read, naming the file and the chmod, never a value', async () => {
    const { path } = await credentialsFile(0o644);
    const notices: string[] = [];
    const file = new CredentialFile(path, (m) => notices.push(m));
    expect(await file.get('openai')).toBe(SECRET);
    await file.get('anthropic');
    await file.readAll();
    expect(notices).toEqual([`${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}`]);
    expect(await modeOf(path)).toBe(0o644); // a read warns, it does not change the file
  });

  it('is warned of again once it was private and is opened up anew; a 0600 file is not', async () => {
    const { path } = await credentialsFile(0o600);
    const notices: string[] = [];
    const file = new CredentialFile(path, (m) => notices.push(m));
    await file.readAll();
    expect(notices).toEqual([]);
    await chmod(path, 0o640);
    await file.readAll();
    await chmod(path, 0o600);
    await file.readAll();
    await chmod(path, 0o640);
    await file.readAll();
    expect(notices).toHaveLength(2);
    expect(notices[1]).toContain('(0640)');
  });

  it('is made 0600 by a write, and the write says so once (not the read before it)', async () => {
    const { path } = await credentialsFile(0o644);
    const notices: string[] = [];
    const file = new CredentialFile(path, (m) => notices.push(m));
    await file.set('anthropic', 'sk-ant-another-Secret_7777');
    expect(await modeOf(path)).toBe(0o600);
    expect(notices).toEqual([`${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`]);
    await file.set('gemini', 'AIza-third-Secret_8888');
    await file.readAll();
    expect(notices).toHaveLength(1);
  });

  it('a delete that writes says only that it made the file 0600; one that finds nothing to delete warns', async () => {
    const { path } = await credentialsFile(0o644);
    const notices: string[] = [];
    const file = new CredentialFile(path, (m) => notices.push(m));
    expect(await file.delete('openai')).toBe(true);
    expect(await modeOf(path)).toBe(0o600);
    expect(notices).toEqual([`${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`]);
    await chmod(path, 0o644);
    expect(await file.delete('openai')).toBe(false);
    expect(await modeOf(path)).toBe(0o644);
    expect(notices[1]).toBe(`${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}`);
    expect(notices).toHaveLength(2);
  });

  it('linked to a 0644 file in a dotfiles folder: the target is made 0600, the link stays a link', async () => {
    const { path, target } = await credentialsFile(0o644, 'linked');
    const notices: string[] = [];
    await new CredentialFile(path, (m) => notices.push(m)).set('anthropic', 'sk-ant-linked-Secret_5555');
    expect((await lstat(path)).isSymbolicLink()).toBe(true);
    expect(await modeOf(target)).toBe(0o600);
    expect(JSON.parse(await readFile(target, 'utf8')).credentials).toEqual({ openai: SECRET, anthropic: 'sk-ant-linked-Secret_5555' });
    expect(notices).toEqual([`${path} (a link to ${target}) could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`]);
  });

  it('the daemon says so in daemon.log: once when it reads the file, once when it writes it', async () => {
    const { dir, path } = await credentialsFile(0o644);
    const d = await startInProcess({ stateDir: dir, env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    daemons.push(d);
    expect(d.deps.credential('openai')).toBe(SECRET);
    const about = () => d.logLines.filter((l) => l.includes(path));
    expect(about()).toEqual([`warn ${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}`]);
    // openai again: into the file without a keychain, or into a keychain and out of the file
    const put = await d.admin('PUT', '/admin/providers/openai/credential', { credential: 'sk-proj-daemon-Secret_6666', insecureStorage: true });
    expect(put.status).toBe(200);
    expect(await modeOf(path)).toBe(0o600);
    expect(about()).toHaveLength(2);
    expect(about()[1]).toBe(`warn ${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`);
    // and in the answer, for the CLI or the TUI that asked
    expect((put.json() as { modeNotices?: string[] }).modeNotices).toEqual([`${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`]);
    expect(put.text).not.toMatch(/Secret_/);
    expect(d.logLines.join('\n')).not.toMatch(/Secret_/);
    expect((await d.admin('DELETE', '/admin/providers/openai/credential')).status).toBe(200);
  });

  it('provider connect through the daemon prints on stderr, once, that the daemon made the file 0600', async () => {
    const { dir, path } = await credentialsFile(0o644);
    const env = { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() };
    daemons.push(await startInProcess({ stateDir: dir, env }));
    const res = await runCli(['provider', 'connect', 'openai', '--insecure-storage'], { env, input: 'sk-proj-cli-daemon-Secret_3131\n' });
    expect(res.code).toBe(0);
    expect(await modeOf(path)).toBe(0o600);
    const warnings = res.stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'));
    expect(warnings).toEqual([`svc-proxy: warning: ${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`]);
    expect(res.stdout + res.stderr).not.toMatch(/Secret_/);
  });

  it('provider disconnect through the daemon prints on stderr that the daemon made the file 0600, and --json has it as modeNotices', async () => {
    const { dir, path } = await credentialsFile(0o644);
    const env = { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() };
    daemons.push(await startInProcess({ stateDir: dir, env }));
    const made = `${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`;
    const res = await runCli(['provider', 'disconnect', 'openai', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(await modeOf(path)).toBe(0o600);
    expect(res.stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'))).toEqual([`svc-proxy: warning: ${made}`]);
    expect(JSON.parse(res.stdout)).toMatchObject({ name: 'openai', removedFrom: ['file'], modeNotices: [made] });
    expect(res.stdout + res.stderr).not.toMatch(/Secret_/);
  });

  it('provider disconnect through the daemon with nothing to remove still tells the client the file is open to others (daemon.log heard it at the start)', async () => {
    const { dir, path } = await credentialsFile(0o644);
    const env = { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() };
    const d = await startInProcess({ stateDir: dir, env });
    daemons.push(d);
    expect(d.deps.credential('openai')).toBe(SECRET); // read, and warned of in daemon.log, at the start
    const open = `${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}`;
    const res = await runCli(['provider', 'disconnect', 'anthropic', '--json'], { env });
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'))).toEqual([`svc-proxy: warning: ${open}`]);
    expect(JSON.parse(res.stdout).error).toMatchObject({ code: 'nothing_removed', modeNotices: [open] });
    expect(await modeOf(path)).toBe(0o644);
    expect(d.logLines.filter((l) => l.includes(path))).toEqual([`warn ${open}`]); // the log is not told twice
  });

  /** credentials.json (the mode given) holding the key of endpoint `work` beside openai's, and config.json naming it. */
  async function endpointInFile(mode: number) {
    const { dir, path } = await credentialsFile(mode);
    await writeFile(path, `${JSON.stringify({ version: 1, credentials: { openai: SECRET, work: 'sk-work-endpoint-Secret_5151' } })}\n`);
    const store = await ConfigStore.open(statePaths(dir));
    await store.update((c) => {
      c.endpoints.work = { url: 'http://127.0.0.1:9/v1', format: 'a', hasCredential: true, created: '2025-01-01T00:00:00Z' };
    });
    const env = { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() };
    return { dir, path, env };
  }
  const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'));

  it('endpoint remove and add through the daemon print on stderr (and in --json) what the daemon said of the file', async () => {
    const { dir, path, env } = await endpointInFile(0o644);
    daemons.push(await startInProcess({ stateDir: dir, env }));
    const made = `${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`;
    const remove = await runCli(['endpoint', 'remove', 'work', '--json'], { env });
    expect(remove.code, remove.stderr).toBe(0);
    expect(await modeOf(path)).toBe(0o600);
    expect(warnings(remove.stderr)).toEqual([`svc-proxy: warning: ${made}`]);
    expect(JSON.parse(remove.stdout)).toMatchObject({ slug: 'work', removedCredentialFrom: ['file'], modeNotices: [made] });

    await chmod(path, 0o644);
    const add = await runCli(['endpoint', 'add', 'work', '--url', 'http://127.0.0.1:9/v1', '--format', 'a', '--insecure-storage', '--json'], { env, input: 'sk-work-endpoint-Secret_5252\n' });
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout) as { source: string; modeNotices?: string[] };
    // into the file (made 0600), or into a keychain where one is usable (the file, which keeps openai's key, is only found open)
    const notice = added.source === 'file' ? made : `${path} holds provider credentials and can be read by group or others (0644): chmod 600 ${path}`;
    expect(added.modeNotices).toEqual([notice]);
    expect(warnings(add.stderr)).toEqual([`svc-proxy: warning: ${notice}`]);
    expect(await modeOf(path)).toBe(added.source === 'file' ? 0o600 : 0o644);
    expect(add.stdout + add.stderr + remove.stdout + remove.stderr).not.toMatch(/Secret_/);
  });

  it('endpoint remove without a daemon says it once (as it happens), and --json has it too', async () => {
    const { path, env } = await endpointInFile(0o640);
    const made = `${path} could be read by group or others (0640); it holds provider credentials, so svc-proxy made it 0600`;
    const res = await runCli(['endpoint', 'remove', 'work', '--json'], { env });
    expect(res.code, res.stderr).toBe(0);
    expect(warnings(res.stderr)).toEqual([`svc-proxy: warning: ${made}`]);
    expect(JSON.parse(res.stdout)).toMatchObject({ slug: 'work', removedCredentialFrom: ['file'], modeNotices: [made] });
  });

  it('provider connect without a daemon says it once too (as it happens, not again from the answer)', async () => {
    const { dir, path } = await credentialsFile(0o644);
    const env = { ...NO_KEYCHAIN_ENV, SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() };
    const res = await runCli(['provider', 'connect', 'openai', '--insecure-storage'], { env, input: 'sk-proj-cli-offline-Secret_3232\n' });
    expect(res.code).toBe(0);
    expect(await modeOf(path)).toBe(0o600);
    const warnings = res.stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'));
    expect(warnings).toEqual([`svc-proxy: warning: ${path} could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`]);
    expect(res.stdout + res.stderr).not.toMatch(/Secret_/);
  });

  it('the CLI warns on stderr when it reads the file without a daemon', async () => {
    const { dir, path } = await credentialsFile(0o604);
    const res = await runCli(['provider', 'list'], { env: { SVC_PROXY_HOME: dir, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
    expect(res.code).toBe(0);
    expect(res.stderr).toBe(`svc-proxy: warning: ${path} holds provider credentials and can be read by group or others (0604): chmod 600 ${path}\n`);
    expect(res.stdout + res.stderr).not.toContain(SECRET);
  });
});
