/**
 * `svc-proxy service install|uninstall|status`: the daemon as a login service, so the base URLs
 * the tools were pointed at answer after every login and the daemon comes back if it crashes.
 * systemd's user manager on Linux, launchd on macOS (cli/service/service-manager.ts). The service
 * runs the same daemon `start` spawns (daemonLaunch), with what it needs of this shell
 * (service-env.ts).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { baseUrls } from '../../config/base-urls.js';
import { ensureStateDir } from '../../config/paths.js';
import { printBaseUrls } from '../daemon-control.js';
import { daemonOf, liveDaemonOf, stopDaemonOf } from '../daemon-of.js';
import { CliError, type CliContext } from '../io.js';
import { currentDefinition as definition } from '../service/current-definition.js';
import { runsFromNpxCache } from '../service/service-definition.js';
import { localServiceManager, ServiceCommandError, type ServiceManager } from '../service/service-manager.js';
import { stoppedSentence } from '../stop-wording.js';

function managerFor(ctx: CliContext): ServiceManager {
  const manager = localServiceManager(ctx.io.env);
  if ('unsupported' in manager) throw new CliError(manager.unsupported, 1, { code: 'service_unsupported' });
  return manager;
}

async function readText(path: string): Promise<string | undefined> {
  return readFile(path, 'utf8').catch(() => undefined);
}

async function install(ctx: CliContext, json: boolean): Promise<void> {
  const manager = managerFor(ctx);
  const { def, notes } = await definition(ctx);
  const problem = manager.problem(def);
  if (problem) throw new CliError(`Could not install the login service: ${problem}.`, 1, { code: 'service_unsupported' });
  // npx runs packages from a cache npm may clear at any time; the service would then start nothing
  if (runsFromNpxCache(def)) {
    throw new CliError('Could not install the login service: this svc-proxy runs from npx\'s cache, which npm may clear, and the service would then start nothing. Install it first (npm install -g svc-proxy), then run `svc-proxy service install` from there.', 1, { code: 'service_from_npx_cache' });
  }
  const paths = ctx.paths();
  await ensureStateDir(paths.dir, ctx.warn);
  const previous = await readText(manager.file);
  await mkdir(dirname(manager.file), { recursive: true });
  await writeFile(manager.file, manager.render(def), { mode: 0o644 });
  try {
    await manager.register();
  } catch (err) {
    // Leave things as they were: the old file, or none.
    if (previous === undefined) await rm(manager.file, { force: true });
    else await writeFile(manager.file, previous);
    if (err instanceof ServiceCommandError) throw new CliError(`Could not install the login service: ${err.message}\nNothing was changed; \`svc-proxy start\` runs the daemon by hand.`, 1, { code: 'service_register_failed' });
    throw err;
  }
  // The service's daemon takes over the state dir and the port from one started by hand (or an
  // older service's): that one drains and stops first.
  const before = await daemonOf(ctx);
  // (none found: the wait for its daemon.json is over, and a second one would find none either)
  const stopped = before ? await stopDaemonOf(ctx, def.stopTimeoutMs) : null;
  try {
    await manager.start();
  } catch (err) {
    if (err instanceof ServiceCommandError) throw new CliError(`The login service is installed (${manager.file}) but did not start: ${err.message}\nSee \`${manager.logHint}\` and ${paths.daemonLog}.`, 1, { code: 'service_start_failed' });
    throw err;
  }
  const { daemonAfterStart, SERVICE_START_WAIT_MS } = await import('../service/service-restart.js');
  const daemon = await daemonAfterStart(paths, before?.pid);
  if (!daemon) throw new CliError(`The login service is installed (${manager.file}) but its daemon did not answer within ${SERVICE_START_WAIT_MS / 1000} s. See \`${manager.logHint}\` and ${paths.daemonLog}.`, 1, { code: 'service_daemon_not_answering' });
  // `start --port/--host` by hand, settings for the service: the tools' base URLs may have moved
  if (before && (before.host !== daemon.host || before.port !== daemon.port)) {
    notes.push(`The daemon that was running listened on ${before.host}:${before.port}; the service's listens on ${daemon.host}:${daemon.port} (settings.host and settings.port): tools pointed at the old address need the new one, or set those settings and run \`svc-proxy restart\`.`);
  }
  notes.push(`It runs Node at ${def.command}; after you move to another Node (nvm, a new install), run \`svc-proxy service install\` again.`);
  if (json) {
    ctx.json({ installed: true, manager: manager.kind, file: manager.file, replacedDaemon: stopped?.pid ?? null, pid: daemon.pid, host: daemon.host, port: daemon.port, baseUrls: baseUrls(daemon.host, daemon.port), notes });
    return;
  }
  ctx.out(`svc-proxy now starts at login (${manager.title} ${manager.file}) and comes back if it crashes.`);
  // stop's own words: a daemon that outlived its drain was killed, and says so
  if (stopped) ctx.out(`${stoppedSentence(stopped)} The service runs the daemon now.`);
  ctx.out(`Running now (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}:`);
  printBaseUrls(ctx, daemon.host, daemon.port);
  for (const note of notes) ctx.out(`note: ${note}`);
}

async function uninstall(ctx: CliContext, json: boolean): Promise<void> {
  const manager = managerFor(ctx);
  if ((await readText(manager.file)) === undefined) {
    if (json) ctx.json({ installed: false, removed: false });
    else ctx.out('No login service is installed.');
    return;
  }
  let problem: string | undefined;
  try {
    await manager.unregister();
  } catch (err) {
    if (!(err instanceof ServiceCommandError)) throw err;
    problem = err.message;
  }
  await rm(manager.file, { force: true });
  await manager.forget().catch(() => {});
  if (json) {
    ctx.json({ installed: false, removed: true, file: manager.file, problem: problem ?? null });
    return;
  }
  ctx.out(`Removed the login service (${manager.file}); svc-proxy no longer starts at login.`);
  if (problem) ctx.out(`note: the service manager could not be told (${problem}); a daemon it runs may still be running: svc-proxy stop`);
  else ctx.out('The daemon it ran was stopped; `svc-proxy start` starts one by hand.');
}

async function status(ctx: CliContext, json: boolean): Promise<void> {
  const manager = managerFor(ctx);
  const written = await readText(manager.file);
  const daemon = await liveDaemonOf(ctx);
  const state = written === undefined ? undefined : await manager.state();
  // Another Node, another install of svc-proxy, another state dir or environment than now.
  const current = written === undefined ? undefined : written === manager.render((await definition(ctx)).def);
  if (json) {
    ctx.json({ installed: written !== undefined, manager: manager.kind, file: manager.file, ...state, current: current ?? null, daemon: daemon ? { pid: daemon.pid, host: daemon.host, port: daemon.port } : null });
    return;
  }
  if (written === undefined) ctx.out(`No login service is installed (svc-proxy service install adds a ${manager.title}).`);
  else {
    const manned = state?.problem ? `the service manager could not be asked: ${state.problem}` : `${state?.enabled ? 'starts at login' : 'does not start at login'}, ${state?.state ?? 'state unknown'}`;
    ctx.out(`login service: ${manager.file} (${manager.title}): ${manned}`);
    if (current === false) ctx.out('It differs from what `svc-proxy service install` would write now (another Node, svc-proxy install, state dir or environment): run it again to update.');
  }
  ctx.out(daemon ? `daemon: running (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}` : 'daemon: not running');
}

export function register(program: Command, ctx: CliContext): void {
  const service = program.command('service').description('Run the daemon as a login service (systemd user unit on Linux, launchd agent on macOS)');
  service
    .command('install')
    .description('Start the daemon at every login and after a crash, and now (a daemon started by hand is stopped first)')
    .option('--json', 'print the result as JSON')
    .action((flags: { json?: boolean }) => install(ctx, flags.json === true));
  service
    .command('uninstall')
    .description('Stop the service and its daemon, and remove the service file')
    .option('--json', 'print the result as JSON')
    .action((flags: { json?: boolean }) => uninstall(ctx, flags.json === true));
  service
    .command('status')
    .description('Is the login service installed, enabled and running, and is it up to date?')
    .option('--json', 'print the result as JSON')
    .action((flags: { json?: boolean }) => status(ctx, flags.json === true));
}
