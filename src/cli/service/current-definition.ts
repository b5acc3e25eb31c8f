/** What a login service installed now would run (shared by `service` and `doctor`). */
import { drainBudget } from '../daemon-control.js';
import { CliError, type CliContext } from '../io.js';
import { hasControlCharacters, type ServiceDefinition } from './service-definition.js';
import { serviceEnv } from './service-env.js';

/** What the service would run if installed now, and what of this shell it leaves out. */
export async function currentDefinition(ctx: CliContext): Promise<{ def: ServiceDefinition; notes: string[] }> {
  const { daemonLaunch } = await import('../../daemon/control.js');
  const paths = ctx.paths();
  const launch = daemonLaunch(paths, ctx.io.env);
  const { env, notes } = serviceEnv(launch.env, ctx.io.env);
  for (const [name, value] of Object.entries(env)) {
    if (!hasControlCharacters(value)) continue;
    delete env[name];
    notes.push(`${name} holds a line break or control character, which a service file cannot hold; it is left out.`);
  }
  for (const path of [launch.command, ...launch.args, paths.daemonLog]) {
    if (hasControlCharacters(path)) throw new CliError(`The path ${JSON.stringify(path)} holds a control character, which a service file cannot hold.`, 1, { code: 'service_path_invalid', details: { path } });
  }
  return { def: { command: launch.command, args: launch.args, env, logFile: paths.daemonLog, stopTimeoutMs: await drainBudget(ctx) }, notes };
}

