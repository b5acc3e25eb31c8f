/**
 * How commander lays out a help page in a narrow terminal. Commander keeps a description beside its
 * term and stops wrapping it when that column is too narrow, so a wide term (`group set <slug> <name>
 * <targets>`) pushed lines past a 60-column edge; here such a description goes under its term, as
 * does one with a word too long for its column. The usage line wraps under the command's name, and
 * the examples of addHelpText break as shell commands do (help-examples.ts).
 */
import type { Command, Help } from 'commander';
import { layOutExample } from './help-examples.js';

/** The narrowest description column kept beside its term; narrower, it goes under the term. */
const MIN_WRAP_COLUMNS = 24;

/** A description under its term is indented this far (past the term's own two-space indent). */
const UNDER_INDENT = 6;

const ITEM_INDENT = 2;
const SPACER = 2;

const longestWord = (text: string): number => Math.max(0, ...text.split(/\s+/).map((w) => [...w].length));

/** commander's formatItem, except a description with too narrow a column goes on the next lines. */
function formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 80;
  const column = width - termWidth - SPACER - ITEM_INDENT;
  if (!description || (column >= MIN_WRAP_COLUMNS && longestWord(description) <= column)) {
    // configureHelp assigns this function onto a Help instance: its prototype has commander's own
    return (Object.getPrototypeOf(this) as Help).formatItem.call(this, term, termWidth, description, helper);
  }
  const indent = ' '.repeat(UNDER_INDENT);
  const wrapped = helper.boxWrap(description, width - UNDER_INDENT);
  return `${' '.repeat(ITEM_INDENT)}${term}\n${indent}${wrapped.replace(/\n/g, `\n${indent}`)}`;
}

/** commander prints the usage after this title. */
const USAGE_TITLE = 'Usage: ';

/** commander's commandUsage, wrapped between its words; the lines after the first start under its first word. */
function commandUsage(this: Help, cmd: Command): string {
  const usage = (Object.getPrototypeOf(this) as Help).commandUsage.call(this, cmd);
  const wrapped = this.boxWrap(usage, (this.helpWidth ?? 80) - USAGE_TITLE.length);
  return wrapped.replace(/\n/g, `\n${' '.repeat(USAGE_TITLE.length)}`);
}

/** The settings main() gives configureHelp. */
export const HELP_SETTINGS: Partial<Help> = { minWidthToWrap: MIN_WRAP_COLUMNS, formatItem, commandUsage };

/**
 * Text for addHelpText, laid out for the width the page is printed at (the terminal's, else 80)
 * rather than hand-wrapped to 80: prose wraps; lines starting with a space are shell examples, a
 * line ending in ` \` continued by the next, broken further where too wide (help-examples.ts).
 */
export function wrappedHelpText(lines: readonly string[]): (context: { error: boolean; command: Command }) => string {
  return ({ error, command }) => {
    const output = command.configureOutput();
    const width = (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
    const help = command.createHelp();
    const out: string[] = [];
    let example: string[] = [];
    for (const line of lines) {
      if (!line.startsWith(' ')) {
        out.push(help.boxWrap(line, width));
        continue;
      }
      example.push(line);
      if (line.endsWith(' \\')) continue;
      out.push(...layOutExample(example, width));
      example = [];
    }
    if (example.length > 0) out.push(...layOutExample(example, width));
    return out.join('\n');
  };
}
