/** `svc-proxy key create|list|revoke` — service keys for tools (shown once, stored hashed). */
import type { Command } from 'commander';
import { CliError, type CliContext } from '../io.js';
import { openManagement } from '../management.js';
import { shortDate, table } from '../output.js';
import { wrappedHelpText } from '../help-layout.js';

export function register(program: Command, ctx: CliContext): void {
  const key = program.command('key').description('Service keys: create, list, revoke');
  const manage = () => openManagement(ctx);

  key
    .command('create')
    .description('Create a key and print it once (sk-svc-proxy-…); only its hash is stored')
    .argument('[name]', 'a name for the key (or --name)')
    .option('--name <name>', 'a name for the key, e.g. laptop-claude')
    .option('--json', 'print {"id","name","key","created"}')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy key create --name laptop']))
    .action(async (positional: string | undefined, flags: { name?: string; json?: boolean }) => {
      const name = flags.name ?? positional;
      if (flags.name && positional && flags.name !== positional) throw new CliError('Give the name once: as an argument or with --name.', 2, { code: 'conflicting_options' });
      if (!name) throw new CliError('A key needs a name: svc-proxy key create --name <name>', 2, { code: 'missing_argument' });
      const created = await (await manage()).createKey(name);
      if (flags.json) {
        ctx.json({ id: created.id, name: created.name, key: created.key, created: created.created });
        return;
      }
      ctx.out(created.key);
      ctx.err(`Key "${created.name}" (${created.id}) created. Copy it now: it is not shown again.`);
    });

  key
    .command('list')
    .description('List keys: id, name, prefix, created, last used, state (never the key)')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }) => {
      const keys = await (await manage()).listKeys();
      if (flags.json) {
        ctx.json(keys);
        return;
      }
      if (keys.length === 0) {
        ctx.out('No keys yet. Create one: svc-proxy key create --name <name>');
        return;
      }
      ctx.out(
        table(
          ['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'STATE'],
          keys.map((k) => [k.id, k.name, `${k.prefix}…`, shortDate(k.created), shortDate(k.lastUsed), k.state === 'revoked' ? `revoked ${shortDate(k.revoked)}` : 'active']),
        ),
      );
    });

  key
    .command('revoke')
    .description('Revoke a key by id or name; it stops working before this command returns')
    .argument('<key>', 'key id or name')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy key revoke laptop']))
    .action(async (ref: string, flags: { json?: boolean }) => {
      const revoked = await (await manage()).revokeKey(ref);
      if (flags.json) ctx.json(revoked);
      else if (revoked.alreadyRevoked) ctx.out(`Key "${revoked.name}" (${revoked.id}) was already revoked (${shortDate(revoked.revoked)}).`);
      else if (revoked.saved === false) {
        ctx.out(`Key "${revoked.name}" (${revoked.id}) revoked in the running daemon: it is refused from now on, and its requests under way were ended.`);
        ctx.out(`config.json cannot be written (${revoked.unsavedBecause ?? 'see svc-proxy status'}); the revocation is saved as soon as the file is valid again — until then a restart would bring the key back.`);
      } else ctx.out(`Key "${revoked.name}" (${revoked.id}) revoked.`);
    });
}
