/**
 * How commander lays out a help page in a narrow terminal. Commander keeps a description beside its
 * term and stops wrapping it when that column is too narrow, so a wide term (`group set <slug> <name>
 * <targets>`) pushed lines past a 60-column edge; here such a description goes under its term.
 */
import type { Command, Help } from 'commander';

/** The narrowest description column kept beside its term; narrower, it goes under the term. */
const MIN_WRAP_COLUMNS = 24;

/** A description under its term is indented this far (past the term's own two-space indent). */
const UNDER_INDENT = 6;

const ITEM_INDENT = 2;
const SPACER = 2;

/** commander's formatItem, except a description with too narrow a column goes on the next lines. */
function formatItem(this: Help, term: string, termWidth: number, description: string, helper: Help): string {
  const width = this.helpWidth ?? 80;
  if (!description || width - termWidth - SPACER - ITEM_INDENT >= MIN_WRAP_COLUMNS) {
    // configureHelp assigns this function onto a Help instance: its prototype has commander's own
    return (Object.getPrototypeOf(this) as Help).formatItem.call(this, term, termWidth, description, helper);
  }
  const indent = ' '.repeat(UNDER_INDENT);
  const wrapped = helper.boxWrap(description, width - UNDER_INDENT);
  return `${' '.repeat(ITEM_INDENT)}${term}\n${indent}${wrapped.replace(/\n/g, `\n${indent}`)}`;
}

/** The settings main() gives configureHelp. */
export const HELP_SETTINGS: Partial<Help> = { minWidthToWrap: MIN_WRAP_COLUMNS, formatItem };

/**
 * Prose for addHelpText, wrapped to the width the page is printed at (the terminal's, else 80)
 * rather than hand-wrapped to 80. Lines starting with a space (examples) are kept as written.
 */
export function wrappedHelpText(paragraphs: readonly string[]): (context: { error: boolean; command: Command }) => string {
  return ({ error, command }) => {
    const output = command.configureOutput();
    const width = (error ? output.getErrHelpWidth?.() : output.getOutHelpWidth?.()) ?? 80;
    const help = command.createHelp();
    return paragraphs.map((p) => (p.startsWith(' ') ? p : help.boxWrap(p, width))).join('\n');
  };
}
