/**
 * Where and why a hand-edited JSON file does not parse, in words a person can act on: line and
 * column (Node 20's messages give only a character offset), and what the usual slips of editors
 * that write JSON with comments (VS Code's settings files) are. Such files are refused, not read
 * leniently: svc-proxy rewrites config.json on every change and would drop the comments silently.
 */

/** 1-based line and column of character `offset` in `text`. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** What JSON.parse's error says, without the offset (given as line and column instead) or the echo of the text. */
function reasonOf(message: string): string {
  return message
    .replace(/,? ".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/ \(line \d+ column \d+\)$/, '');
}

/** Why `text` did not parse (`err` from JSON.parse), with the line and column and the slip it looks like. */
export function describeJsonSyntaxError(text: string, err: Error): string {
  const position = /at position (\d+)/.exec(err.message);
  const offset = position ? Number(position[1]) : text.length;
  const { line, column } = lineAndColumn(text, offset);
  const at = text.slice(offset);
  let slip = '';
  if (at.startsWith('//') || at.startsWith('/*')) slip = ' Comments are not allowed: it is plain JSON, not JSON with comments.';
  else if (/^[}\]]/.test(at) && /,\s*$/.test(text.slice(0, offset))) slip = ' A comma after the last item is not allowed.';
  return `line ${line}, column ${column}: ${reasonOf(err.message)}.${slip}`;
}
