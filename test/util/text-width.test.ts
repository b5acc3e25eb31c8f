import { describe, expect, it } from 'vitest';
import { clipStartToWidth, clipToWidth, fitToWidth, graphemes, padToWidth, textWidth } from '../../src/util/text-width.js';

describe('textWidth', () => {
  it('counts CJK and emoji as 2 cells, combining and zero-width marks as 0', () => {
    expect(textWidth('gpt-5')).toBe(5);
    expect(textWidth('日本語')).toBe(6);
    expect(textWidth('한국어')).toBe(6);
    expect(textWidth('ＡＢ')).toBe(4);
    expect(textWidth('👍')).toBe(2);
    expect(textWidth('👍🏽')).toBe(2); // skin tone joins the emoji
    expect(textWidth('👨‍👩‍👧')).toBe(2); // ZWJ family: one picture
    expect(textWidth('🇯🇵')).toBe(2);
    expect(textWidth('❤')).toBe(1); // text presentation
    expect(textWidth('❤️')).toBe(2); // VS16 asks for the emoji
    expect(textWidth('1️⃣')).toBe(2);
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('\u0301')).toBe(0);
    expect(textWidth('a\u200bb')).toBe(2);
    expect(textWidth('ｶﾞ')).toBe(2);
    expect(textWidth('→ … ✓ ·')).toBe(7);
  });
});

describe('cutting and padding by cells', () => {
  it('never cuts inside a grapheme and keeps within the width', () => {
    expect(graphemes('a👨‍👩‍👧e\u0301')).toEqual(['a', '👨‍👩‍👧', 'e\u0301']);
    expect(clipToWidth('日本語モデル', 6)).toBe('日本…');
    expect(clipToWidth('日本語モデル', 7)).toBe('日本語…');
    expect(clipToWidth('👍🏽👍🏽👍🏽', 4)).toBe('👍🏽…');
    expect(clipToWidth('cafe\u0301s', 5)).toBe('cafe\u0301s');
    expect(clipToWidth('abc', 0)).toBe('');
  });

  it('cuts from the start, keeping the end, never inside a grapheme', () => {
    expect(clipStartToWidth('a-long-value', 6)).toBe('…value');
    expect(clipStartToWidth('日本語モデル', 5)).toBe('…デル');
    expect(clipStartToWidth('👍🏽👍🏽👍🏽', 4)).toBe('…👍🏽');
    expect(clipStartToWidth('short', 5)).toBe('short');
    expect(clipStartToWidth('abc', 0)).toBe('');
  });

  it('pads and fits to exactly the width', () => {
    expect(padToWidth('日本', 6)).toBe('日本  ');
    expect(padToWidth('日本', 6, true)).toBe('  日本');
    for (const s of ['日本語モデル', '👍🏽 ok', 'e\u0301e\u0301', 'plain text here']) {
      for (const w of [1, 2, 3, 5, 8, 20]) expect(textWidth(fitToWidth(s, w))).toBe(w);
    }
  });
});
