import { describe, expect, it } from 'vitest';
import { clipboardBytes, osc52, SCREEN_PIECE, screenPassthrough, tmuxPassthrough } from '../../../src/tui/clipboard/osc52.js';

const KEY = 'sk-svc-proxy-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghi';
const B64 = Buffer.from(KEY).toString('base64');

describe('OSC 52', () => {
  it('is ESC ] 52 ; c ; the text in base64, ended by BEL', () => {
    expect(osc52(KEY)).toBe(`\x1b]52;c;${B64}\x07`);
    // the text's UTF-8 bytes, not its UTF-16 units
    expect(osc52('é')).toBe('\x1b]52;c;w6k=\x07');
  });

  it("inside tmux's DCS passthrough has each of its ESCs doubled, and ESC \\ after it", () => {
    expect(tmuxPassthrough(osc52(KEY))).toBe(`\x1bPtmux;\x1b\x1b]52;c;${B64}\x07\x1b\\`);
  });

  it("inside GNU screen's DCS passthrough has its ESC as it is, and ESC \\ after it", () => {
    expect(screenPassthrough(osc52(KEY))).toBe(`\x1bP\x1b]52;c;${B64}\x07\x1b\\`);
  });

  it("through screen, a long one goes in DCS pieces that each fit screen's smallest string buffer (256 bytes)", () => {
    const sequence = osc52('x'.repeat(600));
    const bytes = screenPassthrough(sequence);
    const pieces = bytes.split('\x1b\\');
    expect(pieces.pop(), 'the last piece ends with ESC \\').toBe('');
    expect(pieces).toHaveLength(Math.ceil(sequence.length / SCREEN_PIECE));
    expect(SCREEN_PIECE).toBeLessThan(256);
    for (const piece of pieces) {
      expect(piece.startsWith('\x1bP'), JSON.stringify(piece)).toBe(true);
      expect(piece.length - 2).toBeLessThanOrEqual(SCREEN_PIECE);
    }
    // what screen hands the terminal: the pieces' contents, back to back
    expect(pieces.map((p) => p.slice(2)).join('')).toBe(sequence);
  });

  it('outside tmux and screen goes as it is; inside either, as it is and then through its passthrough', () => {
    expect(clipboardBytes(KEY, undefined)).toBe(`\x1b]52;c;${B64}\x07`);
    expect(clipboardBytes(KEY, 'tmux')).toBe(`\x1b]52;c;${B64}\x07\x1bPtmux;\x1b\x1b]52;c;${B64}\x07\x1b\\`);
    expect(clipboardBytes(KEY, 'screen')).toBe(`\x1b]52;c;${B64}\x07\x1bP\x1b]52;c;${B64}\x07\x1b\\`);
  });
});
