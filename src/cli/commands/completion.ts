/**
 * `svc-proxy completion bash|zsh|fish`: a script that completes commands, subcommands and options
 * (from the commander tree of every command, loaded here), with names from config.json where an
 * argument takes one (value-sources.ts).
 */
import { Argument, type Command } from 'commander';
import { fullProgram } from '../completion/full-program.js';
import { wrappedHelpText } from '../help-layout.js';
import type { CliContext } from '../io.js';

type Script = (data: ReadonlyMap<string, string>) => string;

const SCRIPTS = {
  bash: async (): Promise<Script> => (await import('../completion/bash-script.js')).bashScript,
  zsh: async (): Promise<Script> => (await import('../completion/zsh-script.js')).zshScript,
  fish: async (): Promise<Script> => (await import('../completion/fish-script.js')).fishScript,
} as const;
type Shell = keyof typeof SCRIPTS;

export function register(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('Print a script that completes svc-proxy\'s commands, options and names (providers, groups, keys, tools) in bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(Object.keys(SCRIPTS)))
    .addHelpText(
      'after',
      wrappedHelpText([
        '',
        'To complete in every new shell:',
        '  bash: in ~/.bashrc, source <(svc-proxy completion bash)',
        '  zsh: in ~/.zshrc after compinit, source <(svc-proxy completion zsh)',
        '  fish: save the output as svc-proxy.fish in ~/.config/fish/completions',
        '',
        'Examples:',
        '  svc-proxy completion bash',
        '  svc-proxy completion fish',
      ]),
    )
    .action(async (shell: Shell) => {
      const [{ completionData }, script] = await Promise.all([import('../completion/completion-tree.js'), SCRIPTS[shell]()]);
      ctx.io.stdout.write(script(completionData(await fullProgram(ctx))));
    });
}
