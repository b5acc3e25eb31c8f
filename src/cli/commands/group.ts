/**
 * `svc-proxy group add|set|unset|list|show|remove` — model groups: private endpoints whose model
 * names (the ones a tool insists on sending) map to ordered provider/model targets, tried in turn.
 */
import type { Command } from 'commander';
import { parseModelSpec, type GroupDetail, type GroupSummary } from '../../config/groups.js';
import { openGroupManagement } from '../group-management.js';
import { wrappedHelpText } from '../help-layout.js';
import type { CliContext } from '../io.js';
import { shortDate, table } from '../output.js';

// no default value: commander would print an empty one, "(default: [])", in the help
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function groupRows(groups: GroupSummary[]): string[][] {
  const rows: string[][] = [];
  for (const g of groups) {
    if (g.models.length === 0) rows.push([g.slug, '(no names yet)', '']);
    g.models.forEach((m, i) => rows.push([i === 0 ? g.slug : '', m.name, m.targets.join(', ')]));
  }
  return rows;
}

export function renderGroup(g: GroupDetail): string[] {
  const lines = [
    `Group ${g.slug} (created ${shortDate(g.created)})`,
    `  protocol A (OpenAI):    ${g.baseUrls.a}`,
    `  protocol B (Anthropic): ${g.baseUrls.b}`,
    '',
  ];
  if (g.models.length === 0) {
    lines.push(`No model names yet. Add one: svc-proxy group set ${g.slug} <name> <provider/model>[,<provider/model>…]`);
    return lines;
  }
  const rows: string[][] = [];
  for (const m of g.models) {
    m.targets.forEach((t, i) => rows.push([i === 0 ? m.name : '', `${i + 1}. ${t.target}`, t.problem ? `! ${t.problem}` : '']));
  }
  lines.push(table(['NAME', 'TARGETS (tried in order)', ''], rows));
  const problems = g.models.flatMap((m) => m.targets).filter((t) => t.problem);
  if (problems.length) {
    const notConnected = [...new Set(problems.filter((t) => t.problem === 'not connected').map((t) => t.provider))];
    lines.push('');
    lines.push('Targets marked ! are skipped with an error until fixed.');
    if (notConnected.length) lines.push(`Connect: ${notConnected.map((p) => `svc-proxy provider connect ${p}`).join('; ')}`);
  }
  return lines;
}

export function register(program: Command, ctx: CliContext): void {
  const group = program
    .command('group')
    .description('Model groups: your own model names, each mapped to provider/model targets tried in order (fallback)');
  const manage = () => openGroupManagement(ctx);

  /** After a change, show the group as it now stands (flags targets that are not connected). */
  const showAfter = async (slug: string, json: boolean | undefined, result: unknown) => {
    if (json) {
      ctx.json(result);
      return;
    }
    for (const line of renderGroup(await (await manage()).show(slug))) ctx.out(line);
  };

  group
    .command('add')
    .description('Create a group (URL-safe slug); its names with --model <name>=<targets>, repeatable')
    .argument('<slug>', 'lowercase letters, digits, - and _; it becomes part of the base URLs')
    .option(
      '--model <name=targets>',
      'a model name and its targets in order, split at the first "=" (example below)',
      collect,
    )
    .option('--json', 'print as JSON')
    // on its own line: the example is one word, too long for the option's description column (and
    // at 40 columns for the terminal: it stays whole)
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy group add quick --model \\', '    fast=openai/gpt-5-mini,anthropic/claude-haiku-4-5']))
    .action(async (slug: string, flags: { model?: string[]; json?: boolean }) => {
      const models = (flags.model ?? []).map((spec) => parseModelSpec(spec));
      const added = await (await manage()).add(slug, models);
      await showAfter(added.slug, flags.json, added);
    });

  group
    .command('set')
    .description('Add a model name to a group, or replace its targets (the name keeps its place)')
    .argument('<slug>', 'the group')
    .argument('<name>', 'the model name clients send (any text, "/" and "." included)')
    .argument('<targets>', 'provider/model[,provider/model…], tried in this order')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy group set quick smart \\', '    anthropic/claude-sonnet-4-5']))
    .action(async (slug: string, name: string, targets: string, flags: { json?: boolean }) => {
      const result = await (await manage()).set(slug, name, targets);
      await showAfter(slug, flags.json, result);
    });

  group
    .command('unset')
    .description('Remove a model name from a group')
    .argument('<slug>', 'the group')
    .argument('<name>', 'the model name to remove')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy group unset quick smart']))
    .action(async (slug: string, name: string, flags: { json?: boolean }) => {
      const result = await (await manage()).unset(slug, name);
      if (flags.json) ctx.json(result);
      else ctx.out(`Removed "${name}" from group ${slug} (${result.models.length} name${result.models.length === 1 ? '' : 's'} left).`);
    });

  group
    .command('list')
    .description('List groups with their model names and targets')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }) => {
      const groups = await (await manage()).list();
      if (flags.json) {
        ctx.json(groups);
        return;
      }
      if (groups.length === 0) {
        ctx.out('No groups yet. Add one: svc-proxy group add <slug> --model <name>=<provider/model>[,…]');
        return;
      }
      ctx.out(table(['GROUP', 'NAME', 'TARGETS (in order)'], groupRows(groups)));
    });

  group
    .command('show')
    .description('A group: names and targets in order (not-connected targets flagged) and both base URLs')
    .argument('<slug>', 'the group (see: svc-proxy group list)')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy group show quick']))
    .action(async (slug: string, flags: { json?: boolean }) => {
      const detail = await (await manage()).show(slug);
      if (flags.json) ctx.json(detail);
      else for (const line of renderGroup(detail)) ctx.out(line);
    });

  group
    .command('remove')
    .alias('rm')
    .description('Delete a group (its base URLs stop working at once)')
    .argument('<slug>', 'the group')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy group remove quick']))
    .action(async (slug: string, flags: { json?: boolean }) => {
      const removed = await (await manage()).remove(slug);
      if (flags.json) ctx.json(removed);
      else ctx.out(`Group ${removed.slug} removed.`);
    });

}
