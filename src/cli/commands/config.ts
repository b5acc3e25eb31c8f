/** `svc-proxy config path|check|reload` — where the state lives, is config.json valid, apply it now. */
import type { Command } from 'commander';
import { AdminClient } from '../admin-client.js';
import { CliError, type CliContext } from '../io.js';

export function register(program: Command, ctx: CliContext): void {
  const config = program.command('config').description('The config file: path, check, reload');

  config
    .command('path')
    .description('Print the state directory and the files in it')
    .option('--json', 'print as JSON')
    .action((flags: { json?: boolean }) => {
      const paths = ctx.paths();
      if (flags.json) ctx.json(paths);
      else {
        ctx.out(`state directory: ${paths.dir}`);
        ctx.out(`config:          ${paths.config}`);
        ctx.out(`daemon log:      ${paths.daemonLog}`);
      }
    });

  config
    .command('check')
    .description('Validate config.json (exit 1 and say what is wrong when it is not valid)')
    .action(async () => {
      const { ConfigStore } = await import('../../config/store.js');
      const store = await ConfigStore.open(ctx.paths());
      ctx.out(store.existsOnDisk ? `${store.file} is valid.` : `${store.file} does not exist yet (defaults apply).`);
    });

  config
    .command('reload')
    .description('Make the running daemon re-read config.json now (it also notices edits by itself)')
    .action(async () => {
      const client = await AdminClient.connect(ctx.paths());
      if (!client) throw new CliError('svc-proxy is not running; the file is read when it starts.');
      const result = await client.reloadConfig();
      ctx.out(result.changed ? 'config.json reloaded.' : 'config.json reloaded (no changes).');
    });
}
