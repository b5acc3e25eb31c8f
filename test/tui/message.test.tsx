import { describe, expect, it } from 'vitest';
import { DAEMON_AWAY, Message, messageLines, messageRows } from '../../src/tui/components/Message.js';
import { wrapLines } from '../../src/tui/wrap-lines.js';
import { textWidth } from '../../src/util/text-width.js';
import { frameOf } from './frame-of.js';

function messageFrame(text: string, width: number): string {
  return frameOf(<Message flash={{ kind: 'error', text }} width={width} />);
}

describe('Message', () => {
  it('wraps a long error onto a second line instead of cutting it off', () => {
    const text = 'Endpoint work-gw could not be removed: model group work still routes coder to it.';
    const lines = messageFrame(text, 50).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('still routes coder to it.');
    for (const l of lines) expect(textWidth(l)).toBeLessThanOrEqual(50);
  });

  it('keeps to the room two lines take at 80 columns, ending in … when even that is not enough', () => {
    for (const [width, lines] of [[80, 2], [60, 3], [40, 4], [30, 6], [20, 8]] as const) {
      const frame = messageFrame('word '.repeat(60).trim(), width).split('\n');
      expect(frame, `width ${width}`).toHaveLength(lines);
      expect(frame[lines - 1]!.trimEnd().endsWith('…'), `width ${width}`).toBe(true);
    }
  });

  it('on a short screen keeps to a third of it, two lines at the least', () => {
    expect([messageLines(20, 24), messageLines(20, 12), messageLines(20, 5), messageLines(80, 24)]).toEqual([8, 4, 2, 2]);
  });

  it('a message that two lines at 80 columns hold is whole at every width down to 20, no line wider than the terminal', () => {
    for (const width of [20, 30, 40, 60, 80]) {
      const lines = messageFrame(DAEMON_AWAY.text, width).split('\n');
      for (const l of lines) expect(textWidth(l), `width ${width}: ${l}`).toBeLessThanOrEqual(width);
      expect(lines.map((l) => l.trim()).join(' '), `width ${width}`).toBe(`✗ ${DAEMON_AWAY.text}`);
    }
  });

  it('a short message stays on one line', () => {
    expect(messageFrame('Key revoked.', 40).split('\n')[0]).toBe('✗ Key revoked.');
  });
});

describe('a message with a notice (credentials.json open to others, say)', () => {
  const outcome = 'openai disconnected (removed from file).';
  const notice = `Note: /Users/someone/Library/Application Support/svc-proxy/credentials.json holds provider credentials and can be read by group or others (0644): chmod 600 '/Users/someone/Library/Application Support/svc-proxy/credentials.json'.`;
  const flash = { kind: 'info', text: outcome, notice } as const;

  it('says the outcome, then the notice from a line of its own, with the rows they need', () => {
    const rows = messageRows(flash, 80, 10);
    expect(rows[0]).toBe(outcome);
    expect(rows.slice(1).join(' ')).toBe(notice);
  });

  it('short of rows keeps the outcome on its first line and gives the notice the rest, cut with …', () => {
    for (const max of [2, 3]) {
      const rows = messageRows(flash, 80, max);
      expect(rows, `${max} rows`).toHaveLength(max);
      expect(rows[0]).toBe(outcome);
      expect(rows[1]).toMatch(/^Note: \/Users\/someone/);
      expect(rows.at(-1)).toMatch(/…$/);
    }
  });

  it('a long outcome keeps its first line, cut with …, where the notice needs the others', () => {
    const long = `gemini: key …abcd stored in the insecure credentials file, but not used while GEMINI_API_KEY is set in the daemon's environment and unusable.`;
    const rows = messageRows({ kind: 'info', text: long, notice }, 80, 3);
    expect(rows[0]).toMatch(/^gemini: key …abcd stored in the insecure credentials file, but not used .*…$/);
    expect(rows.slice(1).join(' ')).toMatch(/^Note: .*…$/);
  });

  it('on one row: the outcome, the notice after it as far as it goes, then …', () => {
    expect(messageRows(flash, 80, 1)).toEqual([expect.stringMatching(/^openai disconnected \(removed from file\)\. Note: \/Users\/.*…$/)]);
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
