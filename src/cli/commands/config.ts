/** `svc-proxy config path|check|reload` — where the state lives, is config.json valid, apply it now. */
import type { Command } from 'commander';
import { connectAdmin } from '../connect-admin.js';
import { CliError, type CliContext } from '../io.js';

export function register(program: Command, ctx: CliContext): void {
  const config = program.command('config').description('The config file: path, check, reload');

  config
    .command('path')
    .description('Print the state directory and the files in it')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }) => {
      const paths = ctx.paths();
      const [{ CURRENT_LOG, logsDir }, { savedKeysPath }, { join }] = await Promise.all([import('../../log/paths.js'), import('../tools/saved-keys.js'), import('node:path')]);
      // the request log and the keys saved for tools are where users look next (README, Where state lives)
      const requestLog = join(logsDir(paths.dir), CURRENT_LOG);
      if (flags.json) ctx.json({ ...paths, requestLog, toolKeys: savedKeysPath(paths) });
      else {
        ctx.out(`state directory: ${paths.dir}`);
        ctx.out(`config:          ${paths.config}`);
        ctx.out(`daemon log:      ${paths.daemonLog}`);
        ctx.out(`request log:     ${requestLog}`);
      }
    });

  config
    .command('check')
    .description('Validate config.json: its schema, values a command would refuse, unknown fields (exit 1 when something will not work)')
    .action(async () => {
      const [{ readTextOrNull }, { parseConfigText, withoutByteOrderMark }, { refusedValues }, { duplicateKeys }] = await Promise.all([
        import('../../config/store.js'),
        import('../../config/parse.js'),
        import('../../config/lint.js'),
        import('../../config/duplicate-keys.js'),
      ]);
      const file = ctx.paths().config;
      // read once: the warnings are about the very text that was validated, even if it changes meanwhile
      const text = await readTextOrNull(file);
      if (text === null) {
        ctx.out(`${file} does not exist yet (defaults apply).`);
        return;
      }
      const { config, unknown } = parseConfigText(text, file);
      const refused = refusedValues(config);
      if (refused.length === 0) ctx.out(`${file} is valid.`);
      else {
        ctx.out(`${file} matches the schema, but ${refused.length === 1 ? 'one value' : `${refused.length} values`} will not work as meant:`);
        for (const p of refused) ctx.out(`  - ${p}`);
        ctx.exitCode = 1;
      }
      for (const key of duplicateKeys(withoutByteOrderMark(text))) ctx.out(`warning: ${key} appears twice; the last one is used.`);
      for (const field of unknown) ctx.out(`warning: unknown field ${field} is ignored (a typo?), and dropped from the file at the next change.`);
    });

  config
    .command('reload')
    .description('Make the running daemon re-read config.json now (it also notices edits by itself)')
    .action(async () => {
      const client = await connectAdmin(ctx);
      if (!client) throw new CliError('svc-proxy is not running; the file is read when it starts.', 1, { code: 'daemon_not_running' });
      const result = await client.reloadConfig();
      ctx.out(result.changed ? 'config.json reloaded.' : 'config.json reloaded (no changes).');
    });
}
