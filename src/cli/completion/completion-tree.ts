/**
 * The commander tree as the data a completion script looks up, so the scripts follow the commands
 * as they are (never a list kept by hand). Keys, with `path` the command words (` key create`, ``
 * for the top level, an alias as its own path):
 *   `s<path>`          the subcommands (names and aliases)
 *   `o<path>`          the options (short and long)
 *   `v<path> <flag>`   an option that takes a value: what completes it (`-`: nothing)
 *   `a<path> <n>`      the n-th argument (from 0): what completes it; `r<path>`: n of a variadic last one
 * A value spec is words separated by spaces; `@kind` among them asks `svc-proxy __complete kind`,
 * `:files` lists file names. Nothing else falls back to file names: a URL or a name is no file.
 */
import type { Argument, Command, Option } from 'commander';
import { VALUE_SOURCES } from './value-sources.js';

/** Nothing to offer (a URL, a number, free text). */
const FREE = '-';

export function completionData(program: Command): Map<string, string> {
  const data = new Map<string, string>();
  addNode(data, program, [], []);
  return data;
}

function addNode(data: Map<string, string>, cmd: Command, path: readonly string[], sourcePath: readonly string[]): void {
  const help = cmd.createHelp();
  const key = path.map((w) => ` ${w}`).join('');
  const subs = help.visibleCommands(cmd);
  if (subs.length > 0) data.set(`s${key}`, subs.flatMap((s) => [s.name(), ...s.aliases()]).join(' '));
  const options = help.visibleOptions(cmd);
  data.set(`o${key}`, options.flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined)).join(' '));
  for (const option of options) {
    if (!option.required) continue;
    const spec = optionSpec(option, sourcePath);
    for (const flag of [option.short, option.long]) if (flag) data.set(`v${key} ${flag}`, spec);
  }
  cmd.registeredArguments.forEach((arg, i) => {
    data.set(`a${key} ${i}`, argumentSpec(arg, sourcePath));
    if (arg.variadic) data.set(`r${key}`, String(i));
  });
  for (const sub of subs) {
    // the implicit `help` command completes the commands it can explain
    if (!cmd.commands.includes(sub)) {
      data.set(`a${key} help 0`, subs.filter((s) => s !== sub).map((s) => s.name()).join(' '));
      continue;
    }
    for (const name of [sub.name(), ...sub.aliases()]) addNode(data, sub, [...path, name], [...sourcePath, sub.name()]);
  }
}

function optionSpec(option: Option, sourcePath: readonly string[]): string {
  if (option.argChoices) return option.argChoices.join(' ');
  return VALUE_SOURCES[`${sourcePath.join(' ')} ${option.long ?? option.short ?? ''}`]?.join(' ') ?? FREE;
}

function argumentSpec(arg: Argument, sourcePath: readonly string[]): string {
  if (arg.argChoices) return arg.argChoices.join(' ');
  return VALUE_SOURCES[`${sourcePath.join(' ')} <${arg.name()}>`]?.join(' ') ?? FREE;
}
