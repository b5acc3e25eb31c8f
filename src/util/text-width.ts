/**
 * How many terminal cells text takes, for padding and cutting table cells: a CJK character or an
 * emoji takes 2, a combining mark or a zero-width character 0, most else 1. Counted per grapheme
 * (what a person sees as one character), so an emoji sequence or a letter with its accents is
 * never cut in half. Close to what Ink itself measures with, so our columns and its layout agree.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The graphemes of `text`, in order. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

// Takes no cell of its own: controls, format characters (ZWJ, bidi marks), combining marks, lone surrogates.
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Mn}\p{Me}\p{Cs}\p{Default_Ignorable_Code_Point}]$/u;
const EMOJI = /\p{Emoji_Presentation}/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const EMOJI_VARIANT = '\ufe0f';
const KEYCAP = '\u20e3';
const ZWJ = '\u200d';
const SPACING = /^[\p{Mc}\uff00-\uffef]$/u;

// East Asian Wide and Fullwidth blocks (Unicode EastAsianWidth W/F), pictographs aside: those go by EMOJI.
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo initials
  [0x2329, 0x232a], // angle brackets
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed, compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x18dff], // Tangut, Khitan and their kin
  [0x1aff0, 0x1b2ff], // Kana supplement and extensions, Nushu
  [0x1f200, 0x1f2ff], // enclosed ideographic supplement
  [0x20000, 0x3fffd], // CJK extensions B and beyond
];

function isWide(cp: number): boolean {
  for (const [lo, hi] of WIDE) {
    if (cp < lo) return false;
    if (cp <= hi) return true;
  }
  return false;
}

/** Cells one grapheme takes: 0, 1 or 2. */
export function graphemeWidth(g: string): number {
  const chars = Array.from(g);
  const at = chars.findIndex((c) => !INVISIBLE.test(c));
  if (at < 0) return 0;
  const base = chars[at]!;
  // An emoji by default, or a pictograph asked to look like one (VS16, keycap, ZWJ sequence).
  if (EMOJI.test(base) || g.includes(KEYCAP)) return 2;
  if (PICTOGRAPH.test(base) && (g.includes(EMOJI_VARIANT) || g.includes(ZWJ))) return 2;
  let n = isWide(base.codePointAt(0)!) ? 2 : 1;
  // Spacing marks and halfwidth sound marks (ｶﾞ) join the cluster yet take a cell of their own.
  for (const c of chars.slice(at + 1)) if (SPACING.test(c)) n += isWide(c.codePointAt(0)!) ? 2 : 1;
  return n;
}

/** Cells `text` takes in a terminal. */
export function textWidth(text: string): number {
  // Printable ASCII, the usual case: one cell a character.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let n = 0;
  for (const g of graphemes(text)) n += graphemeWidth(g);
  return n;
}

/** `text` cut with … to at most `width` cells, never inside a grapheme. */
export function clipToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    // room is kept for the ellipsis
    if (used + w > width - 1) break;
    out += g;
    used += w;
  }
  return `${out}…`;
}

/** `text` cut with … at its start to at most `width` cells (the end kept: what was typed last). */
export function clipStartToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  const parts = graphemes(text);
  let out = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = graphemeWidth(parts[i]!);
    if (used + w > width - 1) break;
    out = parts[i]! + out;
    used += w;
  }
  return `…${out}`;
}

/** `text` padded with spaces to `width` cells (left-aligned, or right with `right`). */
export function padToWidth(text: string, width: number, right = false): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return right ? fill + text : text + fill;
}

/** `text` cut (with …) or padded to exactly `width` cells. */
export function fitToWidth(text: string, width: number, right = false): string {
  const cut = clipToWidth(text, width);
  // a 2-cell grapheme cut at the edge can leave the cell short by one: the padding fills it
  return padToWidth(cut, width, right);
}
