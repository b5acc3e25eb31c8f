/**
 * `svc-proxy models [PROVIDER…]` — the model ids a client can send (`provider/model`), from the
 * running daemon's live catalog: every connected provider, custom endpoint and local server. A
 * provider whose list could not be fetched is named on stderr with its code and the reason (a
 * refused key shows here before any tool runs into it). Starts the daemon first when none runs, as `tui` does.
 */
import type { Command } from 'commander';
import { isRefusedCredential, listFailureText } from '../../providers/model-list-failure.js';
import type { CatalogModel } from '../../providers/models.js';
import type { AdminClient } from '../admin-client.js';
import { ensureDaemon } from '../daemon-control.js';
import { connectAdmin } from '../connect-admin.js';
import { CliError, type CliContext } from '../io.js';
import { table } from '../output.js';
import { workingKeyFix } from '../working-key-fix.js';
import { wrappedHelpText } from '../help-layout.js';

/** Long enough for a slow provider's pages (each list fetch is bounded at 3 s by the daemon). */
const LIST_TIMEOUT_MS = 30_000;

export function register(program: Command, ctx: CliContext): void {
  program
    .command('models')
    .description('The model ids to use (provider/model), live from every connected provider (starts the daemon if needed)')
    .argument('[providers...]', 'only these providers, endpoints or local servers')
    .option('--json', 'print as JSON: {models, failed: {<slug>: {code, reason}}}')
    .addHelpText('after', wrappedHelpText(['', 'Examples:', '  svc-proxy models', '  svc-proxy models anthropic openai']))
    .action(async (providers: string[], flags: { json?: boolean }) => {
      const { daemon, alreadyRunning } = await ensureDaemon(ctx);
      if (!alreadyRunning) ctx.err(`No daemon was running: started one (pid ${daemon.pid}) on ${daemon.host}:${daemon.port}.`);
      const client = await connectAdmin(ctx);
      if (!client) throw new CliError('The daemon stopped before it could be asked.', 1, { code: 'daemon_not_running' });
      const wanted = providers.length > 0 ? new Set(providers) : undefined;
      // named providers: only those are asked, not every provider's list
      const answer = await client.models(wanted, LIST_TIMEOUT_MS);
      const models = answer.models.filter((m) => !wanted || wanted.has(m.provider)).sort((a, b) => a.id.localeCompare(b.id));
      // a daemon from before ?provider= narrowed `failed` sends every failure it keeps
      const failed = Object.entries(answer.failed).filter(([slug]) => !wanted || wanted.has(slug));
      const unknown = wanted ? await unknownNames(ctx, client, wanted, answer) : [];
      // with --json the error is the one object on stdout (thrown below, once the failures are named)
      if (flags.json) {
        if (unknown.length === 0) ctx.json({ models, failed: Object.fromEntries(failed) });
      } else {
        if (models.length > 0) ctx.out(table(['MODEL', 'NAME', 'CONTEXT'], models.map((m) => [m.id, nameOf(m), m.contextWindow?.toLocaleString('en-US') ?? ''])));
        ctx.out(summary(models, failed.length));
        if (models.length === 0 && failed.length === 0 && !wanted && (await configuredSlugs(client)).size === 0) ctx.out('Nothing is connected yet: svc-proxy provider connect <anthropic|openai|openrouter|gemini>, endpoint add, or local add.');
      }
      // which slugs are built-in providers: asked only when a key was refused, to say how to replace it
      const refused = failed.some(([, f]) => isRefusedCredential(f.reason));
      const builtIn = refused ? new Set((await client.status()).providers.map((p) => p.name)) : new Set<string>();
      for (const [slug, f] of failed) ctx.err(`${slug}: no model list: ${sentence(listFailureText(f))}${hint(f.reason, slug, builtIn.has(slug))}`);
      if (unknown.length > 0) throw unknownError(unknown);
      // nothing to list and a reason: the command did not do what was asked
      if (models.length === 0 && failed.length > 0) ctx.exitCode = 1;
    });
}

/** The names asked for that no connected provider, endpoint or local server has (those listed empty named on stderr). */
async function unknownNames(ctx: CliContext, client: AdminClient, wanted: ReadonlySet<string>, answer: { models: readonly CatalogModel[]; failed: Readonly<Record<string, unknown>> }): Promise<string[]> {
  const listed = new Set([...answer.models.map((m) => m.provider), ...Object.keys(answer.failed)]);
  const unknown = [...wanted].filter((slug) => !listed.has(slug));
  if (unknown.length === 0) return [];
  // one that answered with an empty list is connected all the same
  const configured = await configuredSlugs(client);
  for (const slug of unknown.filter((u) => configured.has(u))) ctx.err(`${slug}: its model list is empty.`);
  return unknown.filter((u) => !configured.has(u));
}

function unknownError(unknown: readonly string[]): CliError {
  const message = `No connected provider, endpoint or local server named ${unknown.join(', ')} (see: svc-proxy provider list, endpoint list, local list).`;
  return new CliError(message, 1, { code: 'unknown_provider', details: { unknown } });
}

/** Connected built-in providers, endpoints and local servers. */
async function configuredSlugs(client: AdminClient): Promise<Set<string>> {
  const s = await client.status();
  return new Set([...s.providers.filter((p) => p.connected).map((p) => p.name), ...s.endpoints.map((e) => e.slug), ...s.locals.map((l) => l.slug)]);
}

/** A reason as one sentence: one period at its end, none after a question (a local server's hint). */
function sentence(reason: string): string {
  return reason.endsWith('?') ? reason : `${reason.replace(/\.+$/, '')}.`;
}

function nameOf(m: CatalogModel): string {
  return m.displayName !== undefined && m.displayName !== m.id.slice(m.provider.length + 1) ? m.displayName : '';
}

function summary(models: CatalogModel[], failures: number): string {
  const providers = new Set(models.map((m) => m.provider)).size;
  const listed = models.length === 0 ? 'No models listed' : `${models.length} model${models.length === 1 ? '' : 's'} from ${providers} provider${providers === 1 ? '' : 's'}`;
  return failures > 0 ? `${listed}; ${failures} could not be listed (below).` : `${listed}.`;
}

function hint(reason: string, slug: string, builtIn: boolean): string {
  return isRefusedCredential(reason) ? ` Store a working key: ${workingKeyFix(slug, builtIn)}.` : '';
}
