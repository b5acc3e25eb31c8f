/**
 * The login service manager of this platform, driven through its own command: `systemctl --user`
 * (Linux, systemd-unit.ts) or `launchctl` (macOS, launch-agent.ts). Windows has neither; `service`
 * says so there.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LAUNCHD_LABEL, launchAgentPlist, plistEnvironmentEntry } from './launch-agent.js';
import type { ServiceDefinition } from './service-definition.js';
import { SYSTEMD_UNIT, systemdEnvironmentLine, systemdExecutableProblem, systemdUnit } from './systemd-unit.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A service manager command failed; `message` carries its own words. */
export class ServiceCommandError extends Error {}

export interface ServiceState {
  /** Will it start at login? undefined: the manager could not be asked. */
  enabled?: boolean;
  /** The manager's word for it now: active, inactive, failed, running … */
  state?: string;
  /** Why the manager could not be asked. */
  problem?: string;
}

export interface ServiceManager {
  kind: 'systemd' | 'launchd';
  /** The unit or label name. */
  name: string;
  /** Where the service file lives. */
  file: string;
  /** The words for it in messages: "systemd user unit", "launchd agent". */
  title: string;
  /** Where to look when it does not come up. */
  logHint: string;
  render(def: ServiceDefinition): string;
  /** Why this manager could not run that definition, if it could not. */
  problem(def: ServiceDefinition): string | undefined;
  /** With the file written: make the manager take it and start it at login. Throws ServiceCommandError. */
  register(): Promise<void>;
  /** Start the daemon through the manager now (a running one is restarted). */
  start(): Promise<void>;
  /** Restart the daemon of a registered service. */
  restart(): Promise<void>;
  /** Whether a service file runs the daemon of this state dir. */
  serves(fileText: string, stateDir: string): boolean;
  /** Stop the daemon it runs and stop starting it at login; the file is the caller's to remove. */
  unregister(): Promise<void>;
  /** After the file is gone: make the manager forget it. */
  forget(): Promise<void>;
  state(): Promise<ServiceState>;
}

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Env): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: env as NodeJS.ProcessEnv, timeout: 30_000, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new ServiceCommandError(`${command} was not found: ${command === 'systemctl' ? 'this system does not run systemd (WSL without it, a container …)' : 'launchd is not reachable'}.`));
        return;
      }
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
    });
  });
}

async function mustRun(command: string, args: string[], env: Env): Promise<Ran> {
  const ran = await run(command, args, env);
  if (ran.code !== 0) throw new ServiceCommandError(`\`${command} ${args.join(' ')}\` failed (exit ${ran.code}): ${ran.stderr || ran.stdout || 'no output'}`);
  return ran;
}

function systemd(env: Env, home: string): ServiceManager {
  const unitDir = join(env.XDG_CONFIG_HOME || join(home, '.config'), 'systemd', 'user');
  const ctl = (...args: string[]): string[] => ['--user', ...args];
  const restartUnit = async (): Promise<void> => {
    await mustRun('systemctl', ctl('restart', SYSTEMD_UNIT), env);
  };
  return {
    kind: 'systemd',
    name: SYSTEMD_UNIT,
    file: join(unitDir, SYSTEMD_UNIT),
    title: 'systemd user unit',
    logHint: 'systemctl --user status svc-proxy',
    render: systemdUnit,
    problem: (def) => systemdExecutableProblem(def.command),
    async register() {
      await mustRun('systemctl', ctl('daemon-reload'), env);
      await mustRun('systemctl', ctl('enable', SYSTEMD_UNIT), env);
    },
    // `restart` starts a stopped unit too
    start: restartUnit,
    restart: restartUnit,
    serves: (text, stateDir) => text.split('\n').includes(systemdEnvironmentLine('SVC_PROXY_HOME', stateDir)),
    async unregister() {
      await mustRun('systemctl', ctl('disable', '--now', SYSTEMD_UNIT), env);
    },
    async forget() {
      await run('systemctl', ctl('daemon-reload'), env);
    },
    async state() {
      const enabled = await run('systemctl', ctl('is-enabled', SYSTEMD_UNIT), env).catch((e: Error) => ({ code: -1, stdout: '', stderr: e.message }));
      if (!enabled.stdout) return { problem: enabled.stderr || 'systemctl gave no answer' };
      const active = await run('systemctl', ctl('is-active', SYSTEMD_UNIT), env);
      return { enabled: enabled.stdout === 'enabled', state: active.stdout || undefined };
    },
  };
}

function launchd(env: Env, home: string, uid: number): ServiceManager {
  const file = join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
  const target = `gui/${uid}/${LAUNCHD_LABEL}`;
  return {
    kind: 'launchd',
    name: LAUNCHD_LABEL,
    file,
    title: 'launchd agent',
    logHint: `launchctl print ${target}`,
    render: launchAgentPlist,
    problem: () => undefined,
    async register() {
      // a loaded older definition stays in force until it is booted out
      await run('launchctl', ['bootout', target], env);
    },
    async start() {
      await mustRun('launchctl', ['bootstrap', `gui/${uid}`, file], env);
    },
    async restart() {
      const ran = await run('launchctl', ['kickstart', '-k', target], env);
      // 113: not loaded (booted out by hand): load it, which starts it
      if (ran.code === 113) await mustRun('launchctl', ['bootstrap', `gui/${uid}`, file], env);
      else if (ran.code !== 0) throw new ServiceCommandError(`\`launchctl kickstart -k ${target}\` failed (exit ${ran.code}): ${ran.stderr || ran.stdout}`);
    },
    serves: (text, stateDir) => text.includes(plistEnvironmentEntry('SVC_PROXY_HOME', stateDir)),
    async unregister() {
      const ran = await run('launchctl', ['bootout', target], env);
      // 3 / 113: not loaded, which is what was wanted
      if (ran.code !== 0 && ran.code !== 3 && ran.code !== 113) throw new ServiceCommandError(`\`launchctl bootout ${target}\` failed (exit ${ran.code}): ${ran.stderr || ran.stdout}`);
    },
    async forget() {
      // bootout already did
    },
    async state() {
      const ran = await run('launchctl', ['print', target], env).catch((e: Error) => ({ code: -1, stdout: '', stderr: e.message }));
      if (ran.code === -1) return { problem: ran.stderr };
      if (ran.code !== 0) return { enabled: false, state: 'not loaded' };
      return { enabled: true, state: /^\s*state = (.+)$/m.exec(ran.stdout)?.[1]?.trim() };
    },
  };
}

/** This platform's manager, or why there is none. */
export function serviceManager(platform: NodeJS.Platform, env: Env, home: string, uid: number): ServiceManager | { unsupported: string } {
  if (platform === 'linux') return systemd(env, home);
  if (platform === 'darwin') return launchd(env, home, uid);
  return { unsupported: `svc-proxy service supports systemd (Linux) and launchd (macOS); on ${platform}, have your system run \`svc-proxy start\` at login (on Windows, a Task Scheduler task "At log on").` };
}

/** This machine's manager: its platform, home directory and user. */
export function localServiceManager(env: Env): ServiceManager | { unsupported: string } {
  return serviceManager(process.platform, env, homedir(), process.getuid?.() ?? 0);
}

/** This machine's manager when its service file is installed and runs the daemon of `stateDir`. */
export async function installedService(env: Env, stateDir: string): Promise<ServiceManager | undefined> {
  const manager = localServiceManager(env);
  if ('unsupported' in manager) return undefined;
  const text = await readFile(manager.file, 'utf8').catch(() => undefined);
  return text !== undefined && manager.serves(text, stateDir) ? manager : undefined;
}
