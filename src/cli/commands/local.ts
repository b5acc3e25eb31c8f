/** `svc-proxy local add|list|remove` — local model servers (OpenAI-compatible, no key); `add` finds one when given no URL (local-probe.ts). */
import type { Command } from 'commander';
import { CliError, type CliContext } from '../io.js';
import { warnGroupUses } from '../group-uses-warning.js';
import { openManagement } from '../management.js';
import { table } from '../output.js';
import { displayUrl } from '../../util/display-url.js';
import { probeLocalServers, probePorts, type FoundServer } from '../local-probe.js';
import { wrappedHelpText } from '../help-layout.js';

export function register(program: Command, ctx: CliContext): void {
  const local = program.command('local').description('Local model servers (Ollama, LM Studio, vLLM, llama.cpp …)');
  const manage = () => openManagement(ctx);

  local
    .command('add')
    .description('Add a local server; its models are then addressed as <slug>/<model>')
    .argument('<slug>', 'its name in model ids (lowercase letters, digits, - and _)')
    .option('--url <url>', 'its OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (default: the one server found on the usual ports of 127.0.0.1)')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Examples:', '  svc-proxy local add box', '  svc-proxy local add ollama \\', '    --url http://127.0.0.1:11434/v1']))
    .action(async (slug: string, flags: { url?: string; json?: boolean }) => {
      const found = flags.url === undefined ? await findOneServer(ctx) : undefined;
      const added = await (await manage()).addLocal({ slug, url: flags.url ?? found!.url });
      if (flags.json) ctx.json(found ? { ...added, found: { url: found.url, ...(found.kind ? { kind: found.kind } : {}) } } : added);
      else {
        if (found) ctx.out(`Found ${describeFound(found)} at ${found.url}.`);
        ctx.out(`Local server ${added.slug} added (${displayUrl(added.url)}). Use its models as ${added.slug}/<model>.`);
      }
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
        ctx.out('No local servers. Add one: svc-proxy local add <slug> [--url <url>]');
        return;
      }
      ctx.out(table(['SLUG', 'URL', 'ADDED'], locals.map((l) => [l.slug, displayUrl(l.url), l.detected ? 'detected' : 'by hand'])));
    });

  local
    .command('remove')
    .description('Remove a local server')
    .argument('<slug>', 'the local server (see: svc-proxy local list)')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy local remove box']))
    .action(async (slug: string, flags: { json?: boolean }) => {
      const removed = await (await manage()).removeLocal(slug);
      if (flags.json) ctx.json(removed);
      else ctx.out(`Local server ${removed.slug} removed.`);
      warnGroupUses(ctx, removed.slug, removed.stillUsedBy);
    });
}

/**
 * The one server answering on the usual ports, for `local add` without `--url`; none or several is
 * an error naming what was tried or found (with --json, also as the error's `tried` and `found`).
 */
async function findOneServer(ctx: CliContext): Promise<FoundServer> {
  const ports = probePorts(ctx.io.env);
  if (ports === undefined) throw new CliError('SVC_PROXY_LOCAL_PROBE_PORTS must be ports separated by commas.', 2, { code: 'invalid_probe_ports' });
  const found = await probeLocalServers(ports);
  if (found.length === 1) return found[0]!;
  const tried = ports.map((p) => (p.label ? `${p.port} (${p.label})` : String(p.port))).join(', ');
  const message =
    found.length === 0
      ? `No local server answered GET /v1/models on 127.0.0.1, ports ${tried}. Start one, or pass its base URL with --url.`
      : `Several local servers answer: ${found.map((f) => `${f.url} (${describeFound(f)})`).join(', ')}. Pass the one to add with --url.`;
  const details = { tried: ports.map((p) => p.port), found: found.map((f) => ({ url: f.url, ...(f.kind ? { kind: f.kind } : {}) })) };
  throw new CliError(message, 1, { code: found.length === 0 ? 'no_local_server' : 'several_local_servers', details });
}

function describeFound(f: FoundServer): string {
  if (f.kind === undefined) return 'a server';
  return f.identified ? f.kind : `a server on the default port of ${f.kind}`;
}
