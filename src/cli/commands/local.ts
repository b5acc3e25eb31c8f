/** `svc-proxy local add|list|remove` — local model servers (OpenAI-compatible, no key). */
import type { Command } from 'commander';
import type { CliContext } from '../io.js';
import { warnGroupUses } from '../group-uses-warning.js';
import { openManagement } from '../management.js';
import { table } from '../output.js';
import { displayUrl } from '../../util/display-url.js';

export function register(program: Command, ctx: CliContext): void {
  const local = program.command('local').description('Local model servers (Ollama, LM Studio, vLLM, llama.cpp …)');
  const manage = () => openManagement(ctx.paths(), ctx.io.env);

  local
    .command('add')
    .description('Add a local server; its models are then addressed as <slug>/<model>')
    .argument('<slug>', 'its name in model ids (lowercase letters, digits, - and _)')
    .requiredOption('--url <url>', 'its OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1')
    .option('--json', 'print as JSON')
    .action(async (slug: string, flags: { url: string; json?: boolean }) => {
      const added = await (await manage()).addLocal({ slug, url: flags.url });
      if (flags.json) ctx.json(added);
      else ctx.out(`Local server ${added.slug} added (${displayUrl(added.url)}). Use its models as ${added.slug}/<model>.`);
    });

  local
    .command('list')
    .description('List local servers')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }) => {
      const locals = await (await manage()).listLocals();
      if (flags.json) {
        ctx.json(locals);
        return;
      }
      if (locals.length === 0) {
        ctx.out('No local servers. Add one: svc-proxy local add <slug> --url <url>');
        return;
      }
      ctx.out(table(['SLUG', 'URL', 'ADDED'], locals.map((l) => [l.slug, displayUrl(l.url), l.detected ? 'detected' : 'by hand'])));
    });

  local
    .command('remove')
    .description('Remove a local server')
    .argument('<slug>')
    .option('--json', 'print as JSON')
    .action(async (slug: string, flags: { json?: boolean }) => {
      const removed = await (await manage()).removeLocal(slug);
      if (flags.json) ctx.json(removed);
      else ctx.out(`Local server ${removed.slug} removed.`);
      warnGroupUses(ctx, removed.slug, removed.stillUsedBy);
    });
}
