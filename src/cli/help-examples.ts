/**
 * Shell examples in help text, laid out for the terminal's width. An example is one command,
 * written as lines that end in ` \` where the author broke it; a line still too wide is broken
 * again between two words with ` \`, the rest indented, so the example stays a command a shell
 * reads as written. Quoted text is never broken (the break would change it), but the words of a
 * command substitution are, even inside double quotes: a backslash-newline there continues the
 * inner command. A word longer than the width stays whole, past the edge: breaking it would
 * change what the shell reads.
 */

const CONTINUATION = ' \\';
/** Continuation lines start this much further in than the example's first line. */
const CONTINUATION_INDENT = 2;

type Open = '"' | "'" | '$(';

/** The words of a command line, split where the shell would split them (and inside `$(…)`). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const open: Open[] = []; // quotes and substitutions not yet closed, innermost last
  let word = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    const inside = open.at(-1);
    if (c === ' ' && (inside === undefined || inside === '$(')) {
      if (word !== '') words.push(word);
      word = '';
      continue;
    }
    word += c;
    if (inside === "'") {
      if (c === "'") open.pop();
    } else if (c === '\\') {
      word += line[++i] ?? '';
    } else if (c === '$' && line[i + 1] === '(') {
      open.push('$(');
      word += line[++i];
    } else if (c === '"') {
      if (inside === '"') open.pop();
      else open.push('"');
    } else if (c === "'" && inside !== '"') {
      open.push("'");
    } else if (c === ')' && inside === '$(') {
      open.pop();
    }
  }
  if (word !== '') words.push(word);
  return words;
}

const columns = (text: string): number => [...text].length;

/** One example (its lines as written, the first indented) laid out to `width` columns. */
export function layOutExample(lines: readonly string[], width: number): string[] {
  const indent = columns(lines[0]) - columns(lines[0].trimStart());
  const groups = lines.map((l) => shellWords(l.trim().replace(/ \\$/, '')));
  const out: string[] = [];
  let line: string[] = [];
  const lineIndent = (): number => (out.length === 0 ? indent : indent + CONTINUATION_INDENT);
  const endLine = (continued: boolean): void => {
    out.push(`${' '.repeat(lineIndent())}${line.join(' ')}${continued ? CONTINUATION : ''}`);
    line = [];
  };
  // every word but the last may end its line, and then needs room for the ` \`
  const fits = (words: string[], last: boolean, at: number): boolean => at + columns(words.join(' ')) + (last ? 0 : CONTINUATION.length) <= width;
  groups.forEach((words, g) => {
    const lastGroup = g === groups.length - 1;
    words.forEach((word, w) => {
      const last = lastGroup && w === words.length - 1;
      if (line.length > 0 && !fits([...line, word], last, lineIndent())) {
        // an option goes to the next line with its value where both fit there
        const previous = line[line.length - 1];
        const carried = line.length > 1 && previous.startsWith('-') && fits([previous, word], last, indent + CONTINUATION_INDENT) ? line.pop() : undefined;
        endLine(true);
        if (carried !== undefined) line.push(carried);
      }
      line.push(word);
    });
    if (!lastGroup) endLine(true);
  });
  endLine(false);
  return out;
}
