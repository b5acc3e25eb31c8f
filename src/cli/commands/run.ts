/**
 * `svc-proxy run [--key K|--new-key [--key-name N]] [--group SLUG] [--model ID] <tool> [args…]`: start the
 * daemon if it is not running, then run the tool with the environment `svc-proxy env <tool>`
 * prints (plus the tool's own overrides, e.g. Codex `-c …`), in this terminal, and exit with the
 * tool's exit code. A tool killed by a signal makes svc-proxy end by the same signal.
 */
import type { Command } from 'commander';
import { CliError, type CliContext } from '../io.js';
import { ensureDaemon } from '../daemon-control.js';
import { wrappedHelpText } from '../help-layout.js';
import { findTool, runnableToolNames } from '../tools/index.js';

interface RunFlags {
  key?: string;
  newKey?: boolean;
  keyName?: string;
  group?: string;
  model?: string;
}

export function register(program: Command, ctx: CliContext): void {
  // Options after the tool name belong to the tool: that needs positional options on the parent.
  program.enablePositionalOptions();
  program
    .command('run')
    .description('Start the daemon if needed and run a coding tool pointed at it (exit code passed through)')
    .argument('<tool>', `one of: ${runnableToolNames()}`)
    .argument('[args...]', 'arguments for the tool (everything after the tool name goes to it)')
    .option('--key <key>', 'use this service key (sk-svc-proxy-…), or the name or id of a key svc-proxy saved for a tool')
    .option('--new-key', 'create a new service key for the tool and use it')
    .option('--key-name <name>', 'name for the key --new-key creates (default: the tool id, then -2, -3 …)')
    .option('--group <slug>', "point the tool at a model group's base")
    .option('--model <id>', 'the model the tool should use: provider/model, or with --group one of its names')
    .passThroughOptions()
    .addHelpText('after', wrappedHelpText(['', 'Examples:', '  svc-proxy run claude --model openai/gpt-5.4', '  svc-proxy run codex --model anthropic/claude-sonnet-4-5 \\', '    exec "fix the failing test"']))
    .action(async (name: string, args: string[], flags: RunFlags) => {
      const tool = findTool(name);
      // the tools run starts: naming an app here only leads to a second refusal
      if (!tool) throw new CliError(`Unknown tool "${name}". svc-proxy run starts: ${runnableToolNames()} (the settings for any tool: svc-proxy env --list).`, 2, { code: 'unknown_tool' });
      if (!tool.command) throw new CliError(tool.runRefusal ?? `${tool.title} is not a program svc-proxy can start; print its settings with: svc-proxy env ${tool.id}`, 2, { code: 'tool_not_runnable' });

      const [{ prepare }, spawnTool] = await Promise.all([import('../tools/prepare.js'), import('../tools/spawn-tool.js')]);
      const file = spawnTool.findExecutable(tool.command, ctx.io.env);
      if (!file) throw new CliError(`${tool.command} is not on PATH. Install ${tool.title}${tool.install ? `: ${tool.install}` : ''}`, 1, { code: 'tool_not_installed' });

      const prepared = await prepare(ctx, tool, flags, async () => {
        const { daemon } = await ensureDaemon(ctx);
        return { host: daemon.host, port: daemon.port };
      });
      const env = spawnTool.toolEnv(ctx.io.env, prepared.setup.env, prepared.setup.unset);
      const toolArgs = args[0] === '--' ? args.slice(1) : args;
      const { runConfig } = prepared.setup;
      const configFile = runConfig ? await (await import('../tools/run-config-file.js')).writeRunConfig(ctx.paths().dir, tool.id, runConfig) : undefined;
      const configArgs = runConfig && configFile ? [runConfig.flag, configFile.path] : [];
      let ended;
      try {
        ended = await spawnTool.runTool(file, [...configArgs, ...prepared.setup.runArgs, ...toolArgs], env, { interactive: ctx.io.stdin.isTTY === true });
      } catch (err) {
        throw new CliError(`could not start ${file}: ${err instanceof Error ? err.message : String(err)}`, 1, { code: 'tool_start_failed' });
      } finally {
        await configFile?.remove();
      }
      if (ended.signal) {
        // End the way the tool did, so a shell sees "killed by SIGINT" (loops stop on Ctrl-C).
        // Only as the real process: in-process callers (tests) get the conventional 128 + n.
        if (ctx.io.stdout === process.stdout) process.kill(process.pid, ended.signal);
        const { constants } = await import('node:os');
        ctx.exitCode = 128 + (constants.signals[ended.signal] ?? 0);
        return;
      }
      ctx.exitCode = ended.code ?? 1;
    });
}
