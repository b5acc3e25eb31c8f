/**
 * The login service's files and environment (src/cli/service): the systemd unit as the real
 * systemd parses it (`systemd-analyze verify`, where installed: REQUIRE_SYSTEMD=1 makes its absence
 * a failure), the launchd plist's escaping, and what of the shell the service gets.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCHD_LABEL, launchAgentPlist } from '../../src/cli/service/launch-agent.js';
import { runsFromNpxCache, type ServiceDefinition } from '../../src/cli/service/service-definition.js';
import { serviceEnv } from '../../src/cli/service/service-env.js';
import { serviceManager } from '../../src/cli/service/service-manager.js';
import { systemdExecutableProblem, systemdUnit } from '../../src/cli/service/systemd-unit.js';

/** Characters each format must escape: systemd specifiers and variables, quotes, backslashes, XML. */
const AWKWARD = '100% "q" $HOME \\ <a&b>';

function verify(unitPath: string): Promise<{ code: number; output: string } | 'missing'> {
  return new Promise((resolve) => {
    execFile('systemd-analyze', ['verify', '--user', unitPath], { env: { ...process.env, XDG_RUNTIME_DIR: tmpdir() } }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') resolve('missing');
      else resolve({ code: err ? Number(err.code) : 0, output: `${stdout}${stderr}`.trim() });
    });
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-service-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the systemd user unit', () => {
  it('is taken by systemd as written: a Node path with a space, % and $, arguments and variables with every awkward character', async (test) => {
    // systemd checks that the program exists: this Node, at a path that needs its escaping
    const bin = join(dir, 'node dir 50% $x');
    await mkdir(bin, { recursive: true });
    await symlink(process.execPath, join(bin, 'node'));
    const logDir = join(dir, 'state%1');
    await mkdir(logDir);
    const def: ServiceDefinition = { command: join(bin, 'node'), args: ['--no-wasm-tier-up', `/opt/${AWKWARD}/main.js`], env: { SVC_PROXY_HOME: `/home/${AWKWARD}`, NO_PROXY: '.corp.test' }, logFile: join(logDir, 'daemon.log'), stopTimeoutMs: 20_000 };
    const unit = systemdUnit(def);
    expect(unit).toContain(`ExecStart="${bin.replace(/%/g, '%%')}/node" "--no-wasm-tier-up" "/opt/100%% \\"q\\" $$HOME \\\\ <a&b>/main.js"`);
    expect(unit).toContain('Environment="SVC_PROXY_HOME=/home/100%% \\"q\\" $HOME \\\\ <a&b>"');
    expect(unit).toContain(`StandardOutput=append:${logDir.replace(/%/g, '%%')}/daemon.log`);
    expect(unit).toContain('TimeoutStopSec=20');
    const path = join(dir, 'svc-proxy.service');
    await writeFile(path, unit);
    const res = await verify(path);
    if (res === 'missing') {
      if (process.env.REQUIRE_SYSTEMD === '1') throw new Error('systemd-analyze is not installed (REQUIRE_SYSTEMD=1): apt-get install systemd');
      test.skip(true, 'systemd-analyze is not installed here (Debian/Ubuntu: apt-get install systemd)');
      return;
    }
    expect(res).toEqual({ code: 0, output: '' });
    // the check itself catches what systemd refuses: a program path with a quote
    const quotedBin = join(dir, 'quo"te');
    await mkdir(quotedBin);
    await symlink(process.execPath, join(quotedBin, 'node'));
    await writeFile(path, systemdUnit({ ...def, command: join(quotedBin, 'node') }));
    const refused = await verify(path);
    expect(refused).toMatchObject({ code: 1, output: expect.stringContaining('Executable name contains special characters') });
    expect(systemdExecutableProblem(join(quotedBin, 'node'))).toMatch(/systemd cannot run a program whose path holds a quote or a backslash/);
    expect(systemdExecutableProblem(join(bin, 'node'))).toBeUndefined();
  });

  it('leaves the output to the journal when the log path has whitespace, which append: cannot hold', () => {
    const unit = systemdUnit({ command: '/usr/bin/node', args: ['/opt/main.js'], env: {}, logFile: '/home/u/state dir/daemon.log', stopTimeoutMs: 20_000 });
    expect(unit).not.toContain('StandardOutput');
    expect(unit).toContain('Restart=on-failure');
  });
});

describe('the launchd agent', () => {
  it('escapes XML in every string and lists the program, its variables and the log', () => {
    const plist = launchAgentPlist({ command: '/usr/local/bin/node', args: ['--no-wasm-tier-up', `/opt/${AWKWARD}/main.js`], env: { SVC_PROXY_HOME: `/Users/u/${AWKWARD}` }, logFile: '/Users/u/Library/Application Support/svc-proxy/daemon.log', stopTimeoutMs: 25_000 });
    const strings = [...plist.matchAll(/<string>([^<]*)<\/string>/g)].map((m) => m[1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    expect(strings).toEqual([
      LAUNCHD_LABEL,
      '/usr/local/bin/node',
      '--no-wasm-tier-up',
      `/opt/${AWKWARD}/main.js`,
      `/Users/u/${AWKWARD}`,
      '/Users/u/Library/Application Support/svc-proxy/daemon.log',
      '/Users/u/Library/Application Support/svc-proxy/daemon.log',
    ]);
    expect(plist).not.toMatch(/<string>[^<]*&(?!amp;|lt;|gt;|quot;)/);
    expect(plist).toContain('<key>SuccessfulExit</key>\n      <false/>');
    expect(plist).toContain('<key>ExitTimeOut</key>\n    <integer>25</integer>');
    // every element that opens closes, in order
    const stack: string[] = [];
    for (const [, close, name, self] of plist.matchAll(/<(\/?)(plist|dict|array|key|string|integer|true|false)\b[^>]*?(\/?)>/g)) {
      if (self) continue;
      if (close) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
  });
});

describe('which state dir a service file runs', () => {
  it('`restart` goes through a service only when its file runs the daemon of this state dir', () => {
    const def: ServiceDefinition = { command: '/usr/bin/node', args: ['/opt/main.js'], env: { SVC_PROXY_HOME: '/home/u/state 100%' }, logFile: '/x/daemon.log', stopTimeoutMs: 20_000 };
    for (const platform of ['linux', 'darwin'] as const) {
      const manager = serviceManager(platform, {}, '/home/u', 1000);
      if ('unsupported' in manager) throw new Error(manager.unsupported);
      const text = manager.render(def);
      expect(manager.serves(text, '/home/u/state 100%'), platform).toBe(true);
      expect(manager.serves(text, '/home/u/state'), platform).toBe(false);
      expect(manager.serves(text, '/home/u/other'), platform).toBe(false);
    }
  });
});

describe('where the daemon runs from', () => {
  it('npx’s cache is no place for a service to start from', () => {
    const def = (main: string): ServiceDefinition => ({ command: '/usr/bin/node', args: ['--no-wasm-tier-up', main], env: {}, logFile: '/x/daemon.log', stopTimeoutMs: 20_000 });
    expect(runsFromNpxCache(def('/home/u/.npm/_npx/3f2a1b/node_modules/svc-proxy/dist/daemon/main.js'))).toBe(true);
    expect(runsFromNpxCache(def('C:\\Users\\u\\AppData\\Local\\npm-cache\\_npx\\3f2a\\node_modules\\svc-proxy\\dist\\daemon\\main.js'))).toBe(true);
    expect(runsFromNpxCache(def('/usr/lib/node_modules/svc-proxy/dist/daemon/main.js'))).toBe(false);
    expect(runsFromNpxCache(def('/home/u/src/my_npx_tools/svc-proxy/dist/daemon/main.js'))).toBe(false);
  });
});

describe('what the service gets of the shell', () => {
  const launch = { SVC_PROXY_HOME: '/state', MALLOC_ARENA_MAX: '1' };

  it('carries the proxy, the CA file and the user’s own malloc settings; a proxy with a password and provider keys stay out, with notes', () => {
    const { env, notes } = serviceEnv(launch, {
      HTTP_PROXY: 'http://proxy.corp:3128',
      https_proxy: 'http://bob:pw@proxy.corp:3128',
      NO_PROXY: 'localhost,.corp',
      NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem',
      MALLOC_ARENA_MAX: '2',
      OPENAI_API_KEY: 'sk-shell',
      GEMINI_API_KEY: 'AIza-shell',
      PATH: '/usr/bin',
      SECRET_THING: 'x',
    });
    expect(env).toEqual({ SVC_PROXY_HOME: '/state', MALLOC_ARENA_MAX: '2', HTTP_PROXY: 'http://proxy.corp:3128', NO_PROXY: 'localhost,.corp', NODE_EXTRA_CA_CERTS: '/etc/corp-ca.pem' });
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^https_proxy in this shell carries a user and password, which are not written into the service file/);
    expect(notes[1]).toBe('The service does not see OPENAI_API_KEY, GEMINI_API_KEY from this shell (a daemon started here uses them before the keychain). Store the keys for the service: svc-proxy provider connect openai; svc-proxy provider connect gemini.');
    expect(JSON.stringify(env)).not.toContain('pw@');
  });

  it('a plain shell adds nothing', () => {
    expect(serviceEnv(launch, { PATH: '/usr/bin', HOME: '/home/u' })).toEqual({ env: launch, notes: [] });
  });
});

describe('the service manager of each platform', () => {
  it('systemd on Linux under XDG_CONFIG_HOME, launchd on macOS under LaunchAgents, and a clear no elsewhere', () => {
    const linux = serviceManager('linux', { XDG_CONFIG_HOME: '/x/cfg' }, '/home/u', 1000);
    expect(linux).toMatchObject({ kind: 'systemd', file: '/x/cfg/systemd/user/svc-proxy.service' });
    expect(serviceManager('linux', {}, '/home/u', 1000)).toMatchObject({ file: '/home/u/.config/systemd/user/svc-proxy.service' });
    expect(serviceManager('darwin', {}, '/Users/u', 501)).toMatchObject({ kind: 'launchd', file: `/Users/u/Library/LaunchAgents/${LAUNCHD_LABEL}.plist`, logHint: `launchctl print gui/501/${LAUNCHD_LABEL}` });
    expect(serviceManager('win32', {}, 'C:\\Users\\u', 0)).toEqual({ unsupported: expect.stringMatching(/systemd \(Linux\) and launchd \(macOS\).*Task Scheduler/) });
  });
});
