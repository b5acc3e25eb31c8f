import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Message } from '../../src/tui/components/Message.js';
import { createTheme, ThemeContext } from '../../src/tui/theme.js';
import { wrapLines } from '../../src/tui/wrap-lines.js';
import { textWidth } from '../../src/util/text-width.js';

function frameOf(text: string, width: number): string {
  const ui = render(
    <ThemeContext.Provider value={createTheme({ NO_COLOR: '1' })}>
      <Message flash={{ kind: 'error', text }} width={width} />
    </ThemeContext.Provider>,
  );
  const frame = ui.lastFrame() ?? '';
  ui.unmount();
  return frame;
}

describe('Message', () => {
  it('wraps a long error onto a second line instead of cutting it off', () => {
    const text = 'Endpoint work-gw could not be removed: model group work still routes coder to it.';
    const lines = frameOf(text, 50).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('still routes coder to it.');
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(50);
  });

  it('keeps to two lines, ending in … when even they are not enough', () => {
    const lines = frameOf('word '.repeat(60).trim(), 40).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.trimEnd().endsWith('…')).toBe(true);
  });

  it('a short message stays on one line', () => {
    expect(frameOf('Key revoked.', 40).split('\n')[0]).toBe('✗ Key revoked.');
  });
});

describe('wrapLines', () => {
  it('breaks at spaces by display width, long words by grapheme, at most max lines', () => {
    expect(wrapLines('aaa bbb ccc', 7, 2)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapLines('日本語日本語', 6, 2)).toEqual(['日本語', '日本語']);
    expect(wrapLines('abcdefghij', 4, 2)).toEqual(['abcd', 'efg…']);
    expect(wrapLines('', 10, 2)).toEqual(['']);
    for (const l of wrapLines('👍🏽'.repeat(20), 9, 3)) expect(textWidth(l)).toBeLessThanOrEqual(9);
  });
});
