/**
 * Every top-level command, loaded only when it is the one being run (so `--version` and `key list`
 * stay cheap). Adding a command: write src/cli/commands/<name>.ts exporting `register(program, ctx)`
 * and add one line below.
 */
import type { Command } from 'commander';
import type { CliContext } from './io.js';

export interface CommandModule {
  register(program: Command, ctx: CliContext): void;
}

export interface CommandEntry {
  name: string;
  aliases?: readonly string[];
  summary: string;
  load(): Promise<CommandModule>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'start', summary: 'start the daemon (background; --foreground to stay attached)', load: () => import('./commands/start.js') },
  { name: 'stop', summary: 'stop the daemon gracefully', load: () => import('./commands/stop.js') },
  { name: 'restart', summary: 'stop the daemon if it runs, then start it', load: () => import('./commands/restart.js') },
  { name: 'service', summary: 'run the daemon as a login service: install, uninstall, status (systemd, launchd)', load: () => import('./commands/service.js') },
  { name: 'status', summary: 'is the daemon running? pid, port, uptime, base URLs, providers', load: () => import('./commands/status.js') },
  { name: 'doctor', summary: 'check the daemon, keys, providers, login service and this shell\'s tool settings, and say what to fix', load: () => import('./commands/doctor.js') },
  { name: 'key', summary: 'service keys: create, list, revoke', load: () => import('./commands/key.js') },
  { name: 'provider', summary: 'built-in providers: list, connect, disconnect, set (base URL, gateway headers)', load: () => import('./commands/provider.js') },
  { name: 'endpoint', summary: 'custom endpoints (OpenAI or Anthropic format): add, list, remove', load: () => import('./commands/endpoint.js') },
  { name: 'local', summary: 'local model servers: add, list, remove', load: () => import('./commands/local.js') },
  { name: 'config', summary: 'config.json: path, check, reload', load: () => import('./commands/config.js') },
  { name: 'group', summary: 'model groups: your model names mapped to provider/model targets with fallback', load: () => import('./commands/group.js') },
  { name: 'models', summary: 'the model ids to use (provider/model), live from every connected provider', load: () => import('./commands/models.js') },
  { name: 'logs', summary: 'the request log: latest requests, --follow, --json, filters', load: () => import('./commands/logs.js') },
  { name: 'stats', summary: 'requests, errors, tokens and p50/p95 latency by provider, model or key', load: () => import('./commands/stats.js') },
  { name: 'env', summary: 'print the settings that point a coding tool at the proxy (claude-code, codex, openai, anthropic, …)', load: () => import('./commands/env.js') },
  { name: 'run', summary: 'start the daemon if needed and run a coding tool pointed at it', load: () => import('./commands/run.js') },
  { name: 'completion', summary: 'print a shell completion script: bash, zsh or fish', load: () => import('./commands/completion.js') },
  { name: 'tui', aliases: ['ui'], summary: 'terminal UI: live request log, keys, groups, providers, stats', load: () => import('./commands/tui.js') },
];

export function findCommand(name: string | undefined): CommandEntry | undefined {
  if (name === undefined) return undefined;
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}
