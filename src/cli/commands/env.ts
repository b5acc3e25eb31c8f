/**
 * `svc-proxy env <tool> [--key K|--new-key [--key-name N]] [--group SLUG] [--model ID] [--json] [--shell S]`
 * prints what points a tool at the proxy: shell exports (config snippets and app settings as
 * comments), or JSON. `svc-proxy env --list` names the tools. Which key is used: see
 * src/cli/tools/key-source.ts.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { Config } from '../../config/schema.js';
import { wrappedHelpText } from '../help-layout.js';
import { liveDaemonOf } from '../daemon-of.js';
import { CliError, type CliContext } from '../io.js';
import { table } from '../output.js';
import { findTool, toolNames, TOOLS } from '../tools/index.js';
import type { Address } from '../tools/prepare.js';
import { SHELLS, type Shell } from '../tools/render.js';
import { hasConfigFile } from '../tools/types.js';

interface EnvFlags {
  list?: boolean;
  key?: string;
  newKey?: boolean;
  keyName?: string;
  group?: string;
  model?: string;
  json?: boolean;
  shell?: Shell;
  configFile?: boolean;
}

function parseShell(value: string): Shell {
  const v = value.toLowerCase();
  const shell = v === 'bash' || v === 'zsh' ? 'sh' : v === 'pwsh' ? 'powershell' : v;
  if (!(SHELLS as readonly string[]).includes(shell)) throw new InvalidArgumentError(`expected one of ${SHELLS.join(', ')}.`);
  return shell as Shell;
}

const HOW = { env: 'environment', 'env+file': 'environment or config file', 'env&file': 'environment and config file', file: 'config file', app: 'app settings' } as const;

function printList(ctx: CliContext, json: boolean | undefined): void {
  if (json) {
    ctx.json(TOOLS.map((t) => ({ id: t.id, aliases: t.aliases, title: t.title, protocol: t.base, via: t.via, run: t.command !== undefined, needsModel: t.needsModel === true })));
    return;
  }
  ctx.out(
    table(
      ['TOOL', 'ALSO', 'NAME', 'BASE', 'SET UP THROUGH', 'RUN'],
      TOOLS.map((t) => [t.id, t.aliases.join(', '), t.title.replace(/ \(.*\)$/, ''), t.base.toUpperCase(), HOW[t.via], t.command ? 'yes' : '-']),
    ),
  );
  ctx.out('');
  ctx.out('svc-proxy env <tool> prints its settings; svc-proxy run <tool> [args…] starts it with them.');
}

/** Where the daemon listens (when it runs), else where it will listen (config settings). */
async function locate(ctx: CliContext, config: Config): Promise<Address> {
  const daemon = await liveDaemonOf(ctx);
  if (daemon) return { host: daemon.host, port: daemon.port };
  ctx.err('svc-proxy: note: the daemon is not running; start it with: svc-proxy start');
  return { host: config.settings.host, port: config.settings.port };
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('env')
    .description('Print the settings that point a coding tool at the proxy (shell exports, --json); --list names the tools')
    .argument('[tool]', `one of: ${toolNames()}`)
    .option('--list', 'list the tools svc-proxy knows')
    .option('--key <key>', 'use this service key (sk-svc-proxy-…), or the name or id of a key svc-proxy saved for a tool')
    .option('--new-key', 'create a new service key for the tool and use it')
    .option('--key-name <name>', 'name for the key --new-key creates (default: the tool id, then -2, -3 …)')
    .option('--group <slug>', "point the tool at a model group's base (for tools that send fixed model names)")
    .option('--model <id>', 'the model the tool should use: provider/model, or with --group one of its names')
    .option('--shell <shell>', `output for ${SHELLS.join(', ')} (default: from $SHELL)`, parseShell)
    .option('--config-file', "print only the tool's config file snippet (tools configured by a file)")
    .option('--json', 'print everything as JSON')
    .addHelpText(
      'after',
      wrappedHelpText([
        '',
        'The service key, in order: --key; --new-key; $SVC_PROXY_KEY; the key svc-proxy saved for this tool; otherwise a new key named after the tool, saved (0600) in the state dir for the next time.',
        '',
        'Examples:',
        '  eval "$(svc-proxy env claude-code --model openai/gpt-5.4)"',
        '  svc-proxy env codex --config-file \\',
        '    --model anthropic/claude-sonnet-4-5 \\',
        '    > ~/.codex/svc-proxy.config.toml',
        '  svc-proxy env openai --json',
      ]),
    )
    .action(async (name: string | undefined, flags: EnvFlags) => {
      if (flags.list) {
        if (name) throw new CliError('--list takes no tool name.', 2, { code: 'too_many_arguments' });
        printList(ctx, flags.json);
        return;
      }
      if (!name) throw new CliError(`Name a tool: svc-proxy env <tool> (${toolNames()}), or svc-proxy env --list.`, 2, { code: 'missing_argument' });
      const tool = findTool(name);
      if (!tool) throw new CliError(`Unknown tool "${name}". Known: ${toolNames()}.`, 2, { code: 'unknown_tool' });
      // before --json's conflict with it: without --json this refusal would still stand
      if (flags.configFile && !hasConfigFile(tool.via)) throw new CliError(`${tool.title} takes no config file; drop --config-file.`, 2, { code: 'no_config_file' });
      if (flags.configFile && flags.json) throw new CliError('Give either --config-file or --json.', 2, { code: 'conflicting_options' });

      const [{ prepare }, { defaultShell, renderShell, toJson }] = await Promise.all([import('../tools/prepare.js'), import('../tools/render.js')]);
      const prepared = await prepare(ctx, tool, { key: flags.key, newKey: flags.newKey, keyName: flags.keyName, group: flags.group, model: flags.model }, (config) => locate(ctx, config));
      if (flags.json) ctx.json(toJson(prepared));
      else if (flags.configFile) ctx.io.stdout.write(prepared.setup.file!.content);
      else ctx.io.stdout.write(renderShell(prepared, flags.shell ?? defaultShell(ctx.io.env)));
    });
}
