import { describe, expect, it } from 'vitest';
import { atEnd, end, eraseAt, eraseBefore, eraseWordBefore, home, insert, left, right, type Edit } from '../../src/tui/text-edit.js';

/** `|` in `marked` is the cursor. */
const at = (marked: string): Edit => ({ value: marked.replace('|', ''), cursor: marked.indexOf('|') });
const show = (e: Edit) => `${e.value.slice(0, e.cursor)}|${e.value.slice(e.cursor)}`;

describe('editing at a cursor', () => {
  it('starts at the end of what it is given', () => {
    expect(show(atEnd('abc'))).toBe('abc|');
  });

  it('moves a grapheme at a time, and stops at either end', () => {
    expect(show(left(at('ab|c')))).toBe('a|bc');
    expect(show(right(at('ab|c')))).toBe('abc|');
    expect(show(left(at('|abc')))).toBe('|abc');
    expect(show(right(at('abc|')))).toBe('abc|');
    // an emoji with its skin tone, a letter with its accent: one step each, never half of one
    expect(show(left(at('a👍🏽|')))).toBe('a|👍🏽');
    expect(show(right(at('|e\u0301x')))).toBe('e\u0301|x');
  });

  it('Home and End go to the start and the end', () => {
    expect(show(home(at('ab|c')))).toBe('|abc');
    expect(show(end(at('a|bc')))).toBe('abc|');
  });

  it('inserts at the cursor and moves it past what went in', () => {
    expect(show(insert(at('ab|ef'), 'cd'))).toBe('abcd|ef');
    expect(show(insert(at('|'), 'x'))).toBe('x|');
  });

  it('Backspace erases the grapheme before the cursor; at the start, nothing', () => {
    expect(show(eraseBefore(at('ab|c')))).toBe('a|c');
    expect(show(eraseBefore(at('x👍🏽|y')))).toBe('x|y');
    expect(show(eraseBefore(at('|abc')))).toBe('|abc');
  });

  it('Delete erases the grapheme at the cursor; at the end, nothing', () => {
    expect(show(eraseAt(at('a|bc')))).toBe('a|c');
    expect(show(eraseAt(at('x|e\u0301y')))).toBe('x|y');
    expect(show(eraseAt(at('abc|')))).toBe('abc|');
  });

  it('Ctrl-W erases the spaces before the cursor and the word before them, what is after kept', () => {
    expect(show(eraseWordBefore(at('one two|')))).toBe('one |');
    expect(show(eraseWordBefore(at('one two  |three')))).toBe('one |three');
    expect(show(eraseWordBefore(at('one tw|o')))).toBe('one |o');
    expect(show(eraseWordBefore(at('https://x.example/v1|')))).toBe('|');
    expect(show(eraseWordBefore(at('|abc')))).toBe('|abc');
  });
});
