import { describe, expect, it } from 'vitest';
import { copyToClipboard, multiplexerOf } from '../../../src/tui/clipboard/copy-to-clipboard.js';
import { clipboardBytes } from '../../../src/tui/clipboard/osc52.js';

const KEY = 'sk-svc-proxy-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghi';
const SENT = 'Sent to the clipboard (OSC 52): paste to check, as some terminals ignore it.';

async function copied(env: Record<string, string | undefined>) {
  const written: string[] = [];
  const result = await copyToClipboard(KEY, { write: (bytes: string) => written.push(bytes) }, env);
  return { written, result };
}

describe('copying through the terminal the TUI runs in', () => {
  it('knows tmux by TMUX and GNU screen by STY; with both, tmux (the one it can ask)', () => {
    expect(multiplexerOf({})).toBeUndefined();
    expect(multiplexerOf({ TMUX: '/tmp/tmux-1000/default,1234,0' })).toBe('tmux');
    expect(multiplexerOf({ STY: '4321.pts-0.host' })).toBe('screen');
    expect(multiplexerOf({ TMUX: '/tmp/tmux-1000/default,1234,0', STY: '4321.pts-0.host' })).toBe('tmux');
  });

  it("inside GNU screen writes the copy through screen's passthrough as well, and says it was sent", async () => {
    const { written, result } = await copied({ STY: '4321.pts-0.host' });
    expect(written).toEqual([clipboardBytes(KEY, 'screen')]);
    expect(result).toEqual({ copied: true, text: SENT });
  });

  it('outside any writes the sequence alone', async () => {
    const { written, result } = await copied({});
    expect(written).toEqual([clipboardBytes(KEY, undefined)]);
    expect(result).toEqual({ copied: true, text: SENT });
  });
});
