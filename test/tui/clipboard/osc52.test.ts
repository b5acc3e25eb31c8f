import { describe, expect, it } from 'vitest';
import { clipboardBytes, osc52, tmuxPassthrough } from '../../../src/tui/clipboard/osc52.js';

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

  it('outside tmux goes as it is; inside, as it is (for set-clipboard on) and then through the passthrough', () => {
    expect(clipboardBytes(KEY, false)).toBe(`\x1b]52;c;${B64}\x07`);
    expect(clipboardBytes(KEY, true)).toBe(`\x1b]52;c;${B64}\x07\x1bPtmux;\x1b\x1b]52;c;${B64}\x07\x1b\\`);
  });
});
