/**
 * What follows commander's one-line usage error ("too many arguments", "required option … not
 * specified"): the command's usage line and the example from its help page, so the right syntax is
 * on screen without a second run. The help pages themselves are left as they are. An unknown
 * command gets commander's "Did you mean …?", or, without one, where the list of commands is.
 */
import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';

/** Errors about the shape of a command line, where seeing the syntax is the fix. */
const SYNTAX_ERRORS = new Set([
  'commander.excessArguments',
  'commander.missingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.optionMissingArgument',
  'commander.unknownOption',
]);

export function needsUsageHint(code: string): boolean {
  return SYNTAX_ERRORS.has(code);
}

export function usageHint(cmd: Command): string {
  const path = commandPath(cmd);
  const lines = [`Usage: ${usageLine(cmd)}`];
  const example = helpExample(cmd);
  if (example) lines.push(example);
  lines.push(`See \`${path} --help\` for every option.`);
  return `${lines.join('\n')}\n`;
}

/** "svc-proxy key create [options] [name]" */
export function usageLine(cmd: Command): string {
  return `${commandPath(cmd)} ${cmd.usage()}`;
}

/**
 * After "unknown command 'x'": commander's "(Did you mean …?)" is the fix when it has one; without
 * one, where the list of commands is.
 */
export function unknownCommandHint(cmd: Command, message: string): string {
  return suggestionsIn(message).length === 0 ? `See \`${commandPath(cmd)} --help\` for the commands.\n` : '';
}

/** What commander's "(Did you mean x?)" or "(Did you mean one of x, y?)" names, if anything. */
export function suggestionsIn(message: string): string[] {
  const named = /\(Did you mean (?:one of )?(.+)\?\)/.exec(message)?.[1];
  return named === undefined ? [] : named.split(', ');
}

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The "Example:" block of the text addHelpText puts after the help page, if the page has one. */
function helpExample(cmd: Command): string | undefined {
  let after = '';
  // addHelpText's text is written by an 'afterHelp' listener (a Command is an EventEmitter at run time)
  (cmd as unknown as EventEmitter).emit('afterHelp', { error: true, command: cmd, write: (s: string) => (after += s) });
  const at = after.search(/^Examples?:$/m);
  return at < 0 ? undefined : after.slice(at).trimEnd();
}
