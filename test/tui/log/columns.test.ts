import { describe, expect, it } from 'vitest';
import { fitCell, fitColumns, flagsText, GAP, tokensText } from '../../../src/tui/log/columns.js';
import { textWidth } from '../../../src/util/text-width.js';
import { makeEntry } from '../../log/make-entry.js';

const total = (cols: ReturnType<typeof fitColumns>) => cols.reduce((n, c) => n + c.width, 0) + GAP * (cols.length - 1);

describe('fitColumns', () => {
  it('fits 80 columns exactly, dropping only the base column', () => {
    const cols = fitColumns(80);
    expect(cols.map((c) => c.col.id)).toEqual(['time', 'key', 'model', 'answered', 'status', 'latency', 'ttfb', 'tokens', 'flags']);
    expect(total(cols)).toBeLessThanOrEqual(80);
  });

  it('drops TTFB next, then tokens, who answered, flags, key and latency, keeping time, model and status', () => {
    expect(fitColumns(70).map((c) => c.col.id)).not.toContain('ttfb');
    expect(fitColumns(50).map((c) => c.col.id)).toEqual(['time', 'key', 'model', 'status', 'latency', 'flags']);
    expect(fitColumns(40).map((c) => c.col.id)).toEqual(['time', 'model', 'status', 'latency']);
    for (const width of [20, 24, 30]) {
      const cols = fitColumns(width);
      expect(cols.map((c) => c.col.id), `${width}`).toEqual(['time', 'model', 'status']);
      expect(total(cols), `${width}`).toBe(width);
    }
    // the model gives up cells; time and status stay whole
    expect(fitColumns(20).map((c) => c.width)).toEqual([8, 7, 3]);
  });

  it('shows every column when wide, and gives the spare width mostly to the model columns', () => {
    const cols = fitColumns(160);
    expect(cols).toHaveLength(10);
    expect(total(cols)).toBe(160);
    const w = Object.fromEntries(cols.map((c) => [c.col.id, c.width]));
    expect(w.answered).toBeGreaterThan(w.model!);
    expect(w.model).toBeGreaterThan(w.key!);
    expect(w.time).toBe(8);
  });

  it('stops growing at each column\'s maximum', () => {
    const cols = fitColumns(1000);
    for (const c of cols) expect(c.width).toBeLessThanOrEqual(c.col.max);
  });
});

describe('cells', () => {
  it('cuts with an ellipsis and pads to the width', () => {
    expect(fitCell('anthropic/claude-sonnet-4-5', 10)).toBe('anthropic…');
    expect(fitCell('200', 5, true)).toBe('  200');
    expect(fitCell('ok', 4)).toBe('ok  ');
  });

  it('tokens and flags', () => {
    expect(tokensText(makeEntry({ usage: { input: 12_345, output: 678 } }))).toBe('12k/678');
    expect(tokensText(makeEntry({ usage: undefined }))).toBe('-');
    expect(flagsText(makeEntry({ streamed: true, fallback: true, attempts: [{ target: 'a/b', status: 500, latencyMs: 1 }, { target: 'c/d', status: 200, latencyMs: 1 }] }))).toBe('S F2');
    expect(flagsText(makeEntry({ streamed: false, fallback: false }))).toBe('');
  });
});

describe('cells by display width', () => {
  it('cuts and pads CJK, emoji and combining marks to exactly the cell width', () => {
    expect(fitCell('日本語モデル', 6)).toBe('日本… ');
    expect(fitCell('模型', 6)).toBe('模型  ');
    expect(fitCell('👍🏽', 4, true)).toBe('  👍🏽');
    expect(fitCell('cafe\u0301', 5)).toBe('cafe\u0301 ');
    for (const s of ['日本語モデル/大', '🧑‍💻🧑‍💻🧑‍💻', 'e\u0301'.repeat(9)]) {
      for (const w of [3, 4, 7, 12]) expect(textWidth(fitCell(s, w))).toBe(w);
    }
  });
});
