import { describe, expect, it } from 'vitest';
import { footerLines, logFooterLayout } from '../../../src/tui/log/footer-layout.js';
import { describeFilter, NO_FILTER, type ViewFilter } from '../../../src/tui/log/view-filter.js';
import { textWidth } from '../../../src/util/text-width.js';
import { frameOf } from '../frame-of.js';
import { LogFooter } from '../../../src/tui/screens/LogFooter.js';

const SUMMARY = { text: '5m 0.6/min' };
const filtered = (f: ViewFilter) => ({ full: describeFilter(f)!, short: describeFilter(f, true)! });
const line = (l: ReturnType<typeof logFooterLayout>) => l.mode + l.counts + (l.filterBeside ?? '') + (l.error ?? '') + l.hints;

describe('the Log footer layout', () => {
  const filter = filtered({ text: 'claude-sonnet', status: '4xx', key: 'alice' });

  it('puts a filter that fits beside the counts, then the hints that still fit', () => {
    const l = logFooterLayout({ paused: false, held: 0, counts: '1 of 3', filter, summary: SUMMARY }, 100, 2, 2);
    expect(line(l)).toBe('LIVE 1 of 3 requests · filter: /claude-sonnet · status 4xx · key alice · / filter · s status · k key');
    expect(l.below).toEqual([]);
  });

  it('wraps a filter too wide to go beside on lines of its own, whole where they hold it', () => {
    for (const width of [30, 40, 60]) {
      const l = logFooterLayout({ paused: false, held: 0, counts: '1 of 3', filter, summary: SUMMARY }, width, 2, 2);
      expect(l.filterBeside, `${width}`).toBeUndefined();
      for (const text of [line(l), ...l.below]) expect(textWidth(text), `${width}: ${text}`).toBeLessThanOrEqual(width);
      expect(l.below.join(' ').replace(/\s+/g, ''), `${width}`).toContain('/claude-sonnet');
    }
    expect(logFooterLayout({ paused: false, held: 0, counts: '1 of 3', filter, summary: SUMMARY }, 40, 2, 2).below).toEqual(['filter: /claude-sonnet · status 4xx ·', 'key alice']);
    // too long for two lines of 20 even without its label: the typed text whole, the rest cut
    expect(logFooterLayout({ paused: false, held: 0, counts: '1 of 3', filter, summary: SUMMARY }, 20, 2, 2).below).toEqual(['/claude-sonnet ·', 'status 4xx · key al…']);
  });

  it('past its lines leaves out the label, then cuts what follows the typed text with …', () => {
    expect(logFooterLayout({ paused: false, held: 0, counts: '1 of 3', filter, summary: SUMMARY }, 30, 1, 2).below).toEqual(['/claude-sonnet · status 4xx ·…']);
    const long = filtered({ ...NO_FILTER, text: 'a-very-long-filter-typed-by-someone-in-a-hurry' });
    expect(logFooterLayout({ paused: true, held: 2, counts: '0 of 9', filter: long, summary: SUMMARY }, 20, 2, 2).below).toEqual(['/a-very-long-filter-', 'typed-by-someone-in…']);
  });

  it('without a filter, only the state and the hints', () => {
    const l = logFooterLayout({ paused: true, held: 2, counts: '9', summary: SUMMARY }, 30, 2, 2);
    expect(line(l)).toBe(' PAUSED +2 new  9 requests');
    expect(l.below).toEqual([]);
  });

  it('a feed error and why there is no summary are wrapped whole, each on lines of its own where they do not fit beside', () => {
    const error = 'log feed refused: the daemon answered 500 internal_error while following the log';
    const unavailable = 'internal_error: the log directory could not be read';
    for (const width of [20, 30, 40]) {
      const l = logFooterLayout({ paused: false, held: 0, counts: '3', error, summary: { unavailable } }, width, 2, 6);
      const frame = frameOf(<LogFooter layout={l} width={width} />);
      const shown = frame.split('\n');
      for (const text of shown) expect(textWidth(text), `${width}: ${text}`).toBeLessThanOrEqual(width);
      expect(shown, `${width}`).toHaveLength(footerLines(l));
      const words = frame.replace(/\s+/g, ' ');
      expect(words, `${width}:\n${frame}`).toContain(error);
      expect(words, `${width}:\n${frame}`).toContain(`stats unavailable: ${unavailable}`);
      expect(frame, `${width}`).not.toContain('…');
    }
    // beside the counts where it fits whole
    const wide = logFooterLayout({ paused: false, held: 0, counts: '3', error: 'feed refused', summary: SUMMARY }, 80, 2, 2);
    expect(wide.error).toBe(' · feed refused');
    expect(wide.errorBelow).toEqual([]);
    // past its lines the last ends in …
    expect(logFooterLayout({ paused: false, held: 0, counts: '3', error, summary: SUMMARY }, 20, 2, 2).errorBelow.at(-1)!.endsWith('…')).toBe(true);
  });
});
