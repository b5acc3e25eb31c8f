/** `svc-proxy endpoint add|list|remove` — custom upstreams speaking protocol A (Chat Completions) or B (Messages). */
import type { Command } from 'commander';
import { Option } from 'commander';
import { AUTH_HEADER_HELP, checkHeaderFlags, collectHeader, HEADER_HELP } from '../header-flags.js';
import type { CliContext } from '../io.js';
import { warnGroupUses } from '../group-uses-warning.js';
import { wrappedHelpText } from '../help-layout.js';
import { openManagement } from '../management.js';
import { relayModeNotices } from '../mode-notices.js';
import { table } from '../output.js';
import { readSecret } from '../prompt.js';
import { checkNewUpstream } from '../../secrets/operations.js';
import { displayUrl } from '../../util/display-url.js';

interface AddFlags {
  url: string;
  format: 'a' | 'b';
  credential: boolean;
  insecureStorage?: boolean;
  authHeader?: string;
  header?: Record<string, string>;
  json?: boolean;
}

export function register(program: Command, ctx: CliContext): void {
  const endpoint = program.command('endpoint').description('Custom endpoints: any OpenAI-compatible (a) or Anthropic-compatible (b) server');
  const manage = () => openManagement(ctx);

  endpoint
    .command('add')
    .description('Add an endpoint; models are then addressed as <slug>/<model>. Asks for an optional API key (hidden; stdin when piped; empty = none)')
    .argument('<slug>', 'its name in model ids (lowercase letters, digits, - and _)')
    .requiredOption('--url <url>', 'base URL (format a: where /chat/completions is appended; format b: where /v1/messages is appended)')
    .addOption(new Option('--format <format>', 'a = OpenAI Chat Completions, b = Anthropic Messages').choices(['a', 'b']).makeOptionMandatory())
    .option('--no-credential', 'the endpoint needs no API key (do not ask)')
    .option('--insecure-storage', 'when no OS keychain is usable, keep the key in a 0600 file in the state directory')
    .option('--auth-header <name>', AUTH_HEADER_HELP)
    .option('--header <name=value>', HEADER_HELP, collectHeader)
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy endpoint add work --url https://llm.example.com/v1 --format a']))
    .action(async (slug: string, flags: AddFlags) => {
      const management = await manage();
      // refused before the key is asked for
      const headers = flags.header ?? {};
      checkHeaderFlags(flags.authHeader, headers);
      if (flags.credential) {
        const [endpoints, locals] = await Promise.all([management.listEndpoints(), management.listLocals()]);
        checkNewUpstream(slug, flags.url, { endpoints: endpoints.map((e) => e.slug), locals: locals.map((l) => l.slug) });
      }
      const credential = flags.credential ? await readSecret(ctx.io, `API key for ${slug} (input hidden, empty for none): `) : '';
      const added = await management.addEndpoint({
        slug,
        url: flags.url,
        format: flags.format,
        credential,
        insecureStorage: flags.insecureStorage,
        authHeader: flags.authHeader,
        headers,
      });
      relayModeNotices(ctx, management.mode, added);
      if (flags.json) {
        ctx.json(added);
        return;
      }
      const where = added.authHeader ? ` (sent as ${added.authHeader})` : '';
      const fixed = added.headers ? `; with ${Object.keys(added.headers).join(', ')} on every request` : '';
      ctx.out(`Endpoint ${added.slug} added (${added.format === 'a' ? 'OpenAI Chat Completions' : 'Anthropic Messages'} at ${displayUrl(added.url)}${added.hasCredential ? `, key …${added.last4 || '****'} in ${added.source}${where}` : ', no key'}${fixed}).`);
      ctx.out(`Use its models as ${added.slug}/<model> on either base.`);
    });

  endpoint
    .command('list')
    .description('List custom endpoints')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }) => {
      const endpoints = await (await manage()).listEndpoints();
      if (flags.json) {
        ctx.json(endpoints);
        return;
      }
      if (endpoints.length === 0) {
        ctx.out('No custom endpoints. Add one: svc-proxy endpoint add <slug> --url <url> --format a|b');
        return;
      }
      ctx.out(
        table(
          ['SLUG', 'FORMAT', 'URL', 'CREDENTIAL', 'HEADERS'],
          endpoints.map((e) => [
            e.slug,
            e.format,
            displayUrl(e.url),
            e.hasCredential ? `${e.source ?? 'missing'}${e.last4 ? ` …${e.last4}` : ''}${e.authHeader ? ` as ${e.authHeader}` : ''}` : 'none',
            Object.keys(e.headers ?? {}).join(', '),
          ]),
        ),
      );
    });

  endpoint
    .command('remove')
    .description('Remove an endpoint and its stored key')
    .argument('<slug>', 'the endpoint (see: svc-proxy endpoint list)')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy endpoint remove work']))
    .action(async (slug: string, flags: { json?: boolean }) => {
      const management = await manage();
      const removed = await management.removeEndpoint(slug);
      relayModeNotices(ctx, management.mode, removed);
      if (flags.json) ctx.json(removed);
      else ctx.out(`Endpoint ${removed.slug} removed.`);
      warnGroupUses(ctx, removed.slug, removed.stillUsedBy);
    });
}
