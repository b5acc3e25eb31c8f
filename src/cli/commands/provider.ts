/** `svc-proxy provider list|connect|disconnect|set` — the built-in providers and their credentials. */
import type { Command } from 'commander';
import { AUTH_HEADER_HELP, checkHeaderFlags, collectHeader, HEADER_HELP } from '../header-flags.js';
import { connectOutcome } from '../connect-outcome.js';
import { warnGroupUses } from '../group-uses-warning.js';
import { nothingRemoved } from '../disconnect-wording.js';
import { CliError, type CliContext } from '../io.js';
import { openManagement } from '../management.js';
import { relayModeNotices } from '../mode-notices.js';
import { table } from '../output.js';
import { readSecret } from '../prompt.js';
import { displayUrl } from '../../util/display-url.js';
import { keptFixedHeaders } from '../../config/header-settings.js';
import { wrappedHelpText } from '../help-layout.js';

const SOURCE_LABEL: Record<string, string> = { keychain: 'keychain', env: 'env', file: 'file (insecure)' };

export function register(program: Command, ctx: CliContext): void {
  const provider = program.command('provider').description('Built-in providers (anthropic, openai, openrouter, gemini)');
  const manage = () => openManagement(ctx);

  provider
    .command('list')
    .description('Each provider: connected?, where the credential lives, base URL')
    .option('--json', 'print as JSON')
    .action(async (flags: { json?: boolean }) => {
      const management = await manage();
      const providers = await management.listProviders();
      if (flags.json) {
        ctx.json(providers);
        return;
      }
      ctx.out(
        table(
          ['PROVIDER', 'CONNECTED', 'CREDENTIAL', 'BASE URL'],
          providers.map((p) => [
            p.name,
            p.connected ? 'yes' : 'no',
            p.source ? `${SOURCE_LABEL[p.source] ?? p.source}${p.last4 ? ` …${p.last4}` : ''}` : '-',
            `${displayUrl(p.baseUrl)}${p.baseUrlOverridden ? ' (override)' : ''}`,
          ]),
        ),
      );
      for (const p of providers) if (p.credentialProblem !== undefined) ctx.out(`${p.name}: ${p.credentialProblem}`);
      // with a daemon the list is its view; without one the variables read were this shell's, which a daemon started elsewhere may not have
      if (management.mode === 'offline' && providers.some((p) => p.source === 'env' || (p.credentialProblem !== undefined && !p.unusableStored))) {
        ctx.err("note: no daemon is running, so the environment variables shown are this shell's; a daemon reads those of the environment it is started in.");
      }
    });

  provider
    .command('connect')
    .description('Store an API key for a provider in the OS keychain (hidden prompt; reads stdin when piped)')
    .argument('<provider>', 'anthropic, openai, openrouter or gemini')
    .option('--insecure-storage', 'when no OS keychain is usable, keep the key in a 0600 file in the state directory')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Examples:', '  svc-proxy provider connect anthropic', '  echo "$OPENAI_API_KEY" | \\', '    svc-proxy provider connect openai']))
    .action(async (name: string, flags: { insecureStorage?: boolean; json?: boolean }) => {
      const { isBuiltinProvider } = await import('../../secrets/credentials.js');
      if (!isBuiltinProvider(name)) throw new CliError(`Unknown provider "${name}". Built-in providers: anthropic, openai, openrouter, gemini (custom upstreams: svc-proxy endpoint add).`, 2, { code: 'unknown_provider' });
      const management = await manage();
      const credential = await readSecret(ctx.io, `API key for ${name} (input hidden): `);
      if (!credential) throw new CliError('No key given; nothing stored.', 1, { code: 'no_key_given' });
      const result = await management.connectProvider(name, credential, { insecureStorage: flags.insecureStorage });
      relayModeNotices(ctx, management.mode, result);
      if (flags.json) {
        ctx.json(result);
        return;
      }
      const outcome = connectOutcome(result);
      ctx.out(outcome.text);
      if (outcome.note !== undefined) ctx.err(`note: ${outcome.note}`);
    });

  provider
    .command('disconnect')
    .description('Remove the stored API key of a provider')
    .argument('<provider>', 'anthropic, openai, openrouter or gemini')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Example:', '  svc-proxy provider disconnect openai']))
    .action(async (name: string, flags: { json?: boolean }) => {
      const management = await manage();
      const result = await management.disconnectProvider(name);
      relayModeNotices(ctx, management.mode, result);
      // nothing removed: as `endpoint remove` of a name that is not there, an error that says so
      // (with --json, the one object on stdout, the result's fields in it)
      if (result.removedFrom.length === 0) throw new CliError(nothingRemoved(result), 1, { code: 'nothing_removed', details: { ...result } });
      if (flags.json) ctx.json(result);
      if (!flags.json) {
        ctx.out(`${result.name} disconnected (removed from ${result.removedFrom.join(' and ')}).`);
        if (result.keychainError) ctx.err(`warning: the OS keychain could not be checked (${result.keychainError}); if it holds a key for ${result.name}, remove it there.`);
        if (result.stillConnectedViaEnv) ctx.err(`note: still connected through ${result.stillConnectedViaEnv} in the daemon's environment.`);
      }
      warnGroupUses(ctx, result.name, result.stillUsedBy, 'is disconnected');
    });

  provider
    .command('set')
    .description("Override a provider's base URL (--reset restores the default), and the headers a gateway in front of it wants")
    .argument('<provider>', 'anthropic, openai, openrouter or gemini')
    .option('--base-url <url>', 'the new base URL')
    .option('--reset', 'restore the default base URL')
    .option('--auth-header <name>', AUTH_HEADER_HELP)
    .option('--header <name=value>', HEADER_HELP, collectHeader)
    .option('--no-headers', 'remove the header settings')
    .option('--json', 'print as JSON')
    .addHelpText('after', wrappedHelpText(['', 'Examples:', '  svc-proxy provider set openai \\', '    --base-url https://gw.example.com/v1', '  svc-proxy provider set openai --reset']))
    .action(async (name: string, flags: { baseUrl?: string; reset?: boolean; authHeader?: string; header?: Record<string, string>; headers: boolean; json?: boolean }) => {
      flags.header ??= {};
      const setsHeaders = flags.authHeader !== undefined || Object.keys(flags.header).length > 0 || !flags.headers;
      if (flags.baseUrl !== undefined && flags.reset) throw new CliError('Give either --base-url <url> or --reset, not both.', 2, { code: 'conflicting_options' });
      if (flags.baseUrl !== undefined && flags.baseUrl.trim() === '') throw new CliError('--base-url needs a URL; --reset restores the default.', 2, { code: 'invalid_url' });
      if (flags.baseUrl === undefined && !flags.reset && !setsHeaders) throw new CliError('Give --base-url <url>, --reset, or header settings (--auth-header, --header, --no-headers).', 2, { code: 'missing_option' });
      if (!flags.headers && (flags.authHeader !== undefined || Object.keys(flags.header).length > 0)) throw new CliError('--no-headers removes the header settings; give it alone.', 2, { code: 'conflicting_options' });
      checkHeaderFlags(flags.authHeader, flags.header);
      const management = await manage();
      const result: Record<string, unknown> = { name };
      const lines: string[] = [];
      if (flags.baseUrl !== undefined || flags.reset) {
        const base = await management.setProviderBaseUrl(name, flags.reset ? null : (flags.baseUrl as string));
        Object.assign(result, base);
        lines.push(`${base.name} base URL: ${displayUrl(base.baseUrl)}${base.overridden ? '' : ' (default)'}`);
      }
      if (setsHeaders) {
        // the setting not named keeps its value: a new fixed header does not drop the key's header, nor the reverse
        // name=*** (a value as listed, masked) keeps the stored one, as in the TUI's editor: the value was never shown, so it cannot be typed again
        const given = Object.keys(flags.header).length > 0 ? keptFixedHeaders(flags.header) : undefined;
        const current = flags.headers ? (await management.listProviders()).find((p) => p.name === name) : undefined;
        const authHeader = flags.authHeader ?? (flags.headers ? current?.authHeader : undefined);
        // the headers as listed, masked ones given back as the marker that keeps their stored values
        const headers = given ?? (flags.headers && current?.headers ? keptFixedHeaders(current.headers) : undefined);
        const set = await management.setProviderHeaders(name, { authHeader, headers });
        Object.assign(result, { authHeader: set.authHeader ?? null, headers: set.headers ?? null });
        const parts = [set.authHeader ? `key sent as ${set.authHeader}` : '', set.headers ? `${Object.keys(set.headers).join(', ')} on every request` : ''].filter(Boolean);
        lines.push(`${set.name} headers: ${parts.length ? parts.join('; ') : "the provider's own"}`);
      }
      if (flags.json) ctx.json(result);
      else for (const line of lines) ctx.out(line);
    });
}
