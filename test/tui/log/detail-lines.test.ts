import { describe, expect, it } from 'vitest';
import { detailLines } from '../../../src/tui/log/detail-lines.js';
import { textWidth } from '../../../src/util/text-width.js';
import { makeEntry } from '../../log/make-entry.js';

const REASON = 'failed moments ago (upstream_timeout): tried after the other targets for 27 s more, unless every other target fails first';

const entry = makeEntry({
  attempts: [
    { target: 'openai/gpt-5-mini', status: 0, latencyMs: 0, errorCode: 'cooling_down', skipped: REASON },
    { target: 'anthropic/claude-haiku-4-5', status: 200, latencyMs: 800 },
  ],
});

/** The pane's lines from the first attempt's to the second's. */
function skippedLines(width?: number): string[] {
  const texts = detailLines(entry, width).map((l) => l.text);
  const from = texts.findIndex((t) => t.startsWith('  1. '));
  const to = texts.findIndex((t) => t.startsWith('  2. '));
  return texts.slice(from, to);
}

describe('a skipped attempt in the detail pane', () => {
  it('wraps its reason under the target at the pane’s width, every word kept, no line past it', () => {
    for (const width of [80, 40]) {
      const shown = skippedLines(width);
      expect(shown.length, `${width}: ${shown.join(' / ')}`).toBeGreaterThan(1);
      expect(shown[0]!.startsWith('  1. openai/gpt-5-mini  skipped: failed'), `${width}`).toBe(true);
      for (const line of shown) expect(textWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
      // the lines after the first hang under the target
      for (const line of shown.slice(1)) expect(line, `${width}`).toMatch(/^ {5}\S/);
      expect(shown.map((l) => l.trim()).join(' '), `${width}`).toBe(`1. openai/gpt-5-mini  skipped: ${REASON}`);
    }
    expect(skippedLines(40).length).toBeGreaterThan(skippedLines(80).length);
  });

  it('keeps to one line where it fits, and where no width is given', () => {
    expect(skippedLines()).toEqual([`  1. openai/gpt-5-mini  skipped: ${REASON}`]);
    const short = makeEntry({ attempts: [{ target: 'gemini/gemini-2.5-flash', status: 0, latencyMs: 0, skipped: 'no audio input' }] });
    expect(detailLines(short, 80).map((l) => l.text)).toContain('  1. gemini/gemini-2.5-flash  skipped: no audio input');
  });
});
