/**
 * Text broken into lines of at most `width` terminal cells, at spaces where it can be, inside a
 * word (never inside a grapheme) where one word is too long; past `max` lines the last is filled
 * with what follows and ends in ….
 */
import { graphemes, textWidth } from '../util/text-width.js';

/** The longest start of `text` that fits `cells`, and the rest. */
function split(text: string, cells: number): [string, string] {
  let head = '';
  let used = 0;
  const parts = graphemes(text);
  let i = 0;
  for (; i < parts.length; i++) {
    const w = textWidth(parts[i]!);
    if (used + w > cells) break;
    head += parts[i];
    used += w;
  }
  // a grapheme wider than the whole line still has to go somewhere
  if (i === 0 && parts.length > 0) return [parts[0]!, parts.slice(1).join('')];
  return [head, parts.slice(i).join('')];
}

export function wrapLines(text: string, width: number, max: number): string[] {
  if (width <= 0 || max <= 0) return [''];
  const lines: string[] = [];
  // what joins each line to the next in the text: a space, or nothing inside a split word
  const joins: string[] = [];
  let current = '';
  for (let word of text.split(/ +/)) {
    const joined = current ? `${current} ${word}` : word;
    if (textWidth(joined) <= width) {
      current = joined;
      continue;
    }
    if (current) {
      lines.push(current);
      joins.push(' ');
    }
    while (textWidth(word) > width) {
      const [head, rest] = split(word, width);
      lines.push(head);
      joins.push('');
      word = rest;
    }
    current = word;
  }
  lines.push(current);
  if (lines.length <= max) return lines;
  // the last line kept takes what follows it as far as it fits, so its … cuts words, not a whole line's room
  let rest = lines[max - 1]!;
  for (let i = max; i < lines.length; i++) rest += joins[i - 1]! + lines[i]!;
  return [...lines.slice(0, max - 1), `${split(rest, width - 1)[0]}…`];
}
