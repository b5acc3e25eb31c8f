import { describe, expect, it } from 'vitest';
import { wrapLines } from '../../src/tui/wrap-lines.js';

describe('wrapLines', () => {
  it('breaks at spaces, and inside a word too long for a line', () => {
    expect(wrapLines('status ok · /claude', 12, 5)).toEqual(['status ok ·', '/claude']);
    expect(wrapLines('abcdefghij', 4, 5)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('past its lines, fills the last with what follows and ends it in …', () => {
    // not "status ok ·…": the text after the break is what a reader is looking for
    expect(wrapLines('status ok · /claude-sonnet', 20, 1)).toEqual(['status ok · /claude…']);
    expect(wrapLines('one two three four five', 9, 2)).toEqual(['one two', 'three fo…']);
    // a word split across lines is joined back without a space
    expect(wrapLines('abcdefghijkl', 4, 2)).toEqual(['abcd', 'efg…']);
  });
});
