/**
 * The state as dotfile managers leave it, with the real binary: a state directory that is a
 * symlink, and a config.json that is a symlink into a dotfiles repo. Keys are created (by the CLI
 * alone and through the running daemon), the file is edited by hand and the daemon sees it; the
 * links stay links. A link to nothing stops the start with a message that names it. A
 * credentials.json linked to a file others can read is warned of and made 0600 at the next write.
 */
import { chmod, lstat, mkdir, mkdtemp, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, NO_KEYCHAIN_ENV, testKeychainService } from '../daemon/harness.js';
import { sleep, TestDaemon } from '../fixtures/daemon.js';

const made: string[] = [];
let running: TestDaemon | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

function daemonAt(home: string): TestDaemon {
  const env = cleanEnv({ ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() });
  return new TestDaemon(home, env as Record<string, string>);
}

async function keyNames(file: string): Promise<string[]> {
  return (JSON.parse(await readFile(file, 'utf8')) as { keys: { name: string }[] }).keys.map((k) => k.name);
}

/** Until the daemon's own output has `text` (bounded). */
async function untilLogged(d: TestDaemon, text: string): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (!d.log.includes(text) && Date.now() < deadline) await sleep(100);
  return d.log.includes(text);
}

/** A hand edit as an editor saves it: a new file renamed over the old one, in the file's own folder. */
async function editDrainTimeout(file: string, folder: string, drainTimeoutMs: number): Promise<void> {
  const config = JSON.parse(await readFile(file, 'utf8')) as { settings?: Record<string, unknown> };
  config.settings = { ...config.settings, drainTimeoutMs };
  await writeFile(join(folder, 'editor.tmp'), JSON.stringify(config, null, 2));
  await rename(join(folder, 'editor.tmp'), file);
}

describe('symlinked state', () => {
  it('a state directory that is a symlink: key create, start, key create through the daemon, a hand edit seen', async () => {
    const real = await tempDir('svc-e2e-real-');
    const home = join(await tempDir('svc-e2e-links-'), 'state');
    await symlink(real, home);
    const d = daemonAt(home);
    await d.cli(['key', 'create', '--name', 'first']);
    await d.start();
    running = d;
    await d.cli(['key', 'create', '--name', 'second']);
    expect((await lstat(home)).isSymbolicLink()).toBe(true);
    expect(await keyNames(join(real, 'config.json'))).toEqual(['first', 'second']);
    await editDrainTimeout(join(home, 'config.json'), home, 4321);
    expect(await untilLogged(d, 'config.json changed on disk: reloaded')).toBe(true);
    expect((await d.cli(['key', 'list', '--json'])).code).toBe(0);
  }, 60_000);

  it('config.json linked into a dotfiles repo: every write lands there, the link stays, an edit there is seen', async () => {
    const home = await tempDir('svc-e2e-home-');
    const dotfiles = join(await tempDir('svc-e2e-dotfiles-'), 'svc-proxy');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'config.json');
    await writeFile(target, '{"version":2}\n', { mode: 0o644 });
    await symlink(target, join(home, 'config.json'));
    const d = daemonAt(home);
    await d.cli(['key', 'create', '--name', 'first']);
    await d.start();
    running = d;
    await d.cli(['key', 'create', '--name', 'second']);
    expect((await lstat(join(home, 'config.json'))).isSymbolicLink()).toBe(true);
    expect(await keyNames(target)).toEqual(['first', 'second']);
    expect((await lstat(target)).mode & 0o777).toBe(0o644);
    await editDrainTimeout(target, dotfiles, 4321);
    expect(await untilLogged(d, 'config.json changed on disk: reloaded')).toBe(true);
  }, 60_000);

  it('credentials.json linked to a 0644 dotfile: the daemon warns with the chmod, and its next write makes the target 0600', async () => {
    const home = await tempDir('svc-e2e-home-');
    const dotfiles = join(await tempDir('svc-e2e-dotfiles-'), 'svc-proxy');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'credentials.json');
    const link = join(home, 'credentials.json');
    await writeFile(target, JSON.stringify({ version: 1, credentials: { openai: 'sk-proj-e2e-linked-Secret_1111' } }));
    await chmod(target, 0o644);
    await symlink(target, link);
    const d = daemonAt(home);
    await d.start();
    running = d;
    expect(await untilLogged(d, `${link} holds provider credentials and can be read by group or others (0644): chmod 600 ${link}`)).toBe(true);
    await d.cli(['provider', 'connect', 'anthropic', '--insecure-storage'], { input: 'sk-ant-e2e-linked-Secret_2222\n' });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(Object.keys((JSON.parse(await readFile(target, 'utf8')) as { credentials: object }).credentials).sort()).toEqual(['anthropic', 'openai']);
    expect(await untilLogged(d, `${link} (a link to ${target}) could be read by group or others (0644); it holds provider credentials, so svc-proxy made it 0600`)).toBe(true);
    expect(d.log).not.toContain('Secret_');
  }, 60_000);

  it('config.json linked to a file that is gone: start refuses, naming the link (no ENOENT text)', async () => {
    const home = await tempDir('svc-e2e-home-');
    const link = join(home, 'config.json');
    await symlink(join(home, 'moved-away', 'config.json'), link);
    const d = daemonAt(home);
    const res = await d.cli(['start', '--foreground', '--no-tui', '--port', '0'], { allowFail: true });
    expect(res.code).toBe(1);
    expect(res.stderr + res.stdout).toContain(`${link} is a symbolic link to a file that does not exist`);
    expect(res.stderr + res.stdout).not.toContain('ENOENT');
    await expect(lstat(join(home, 'moved-away'))).rejects.toThrow();
  }, 60_000);
});
