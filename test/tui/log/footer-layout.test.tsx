import { describe, expect, it } from 'vitest';
import { footerLines, logFooterLayout } from '../../../src/tui/log/footer-layout.js';
import { describeFilter, NO_FILTER, type ViewFilter } from '../../../src/tui/log/view-filter.js';
import { textWidth } from '../../../src/util/text-width.js';
import { frameOf } from '../frame-of.js';
import { LogFooter } from '../../../src/tui/screens/LogFooter.js';
import { recentStats } from '../../../src/tui/log/recent-stats.js';
import { summaryLine } from '../../../src/tui/log/summary-line.js';
import { report } from './stats-report.js';

const SUMMARY = { figures: recentStats(report(3, 1, 100, 200)) };
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

  it('a feed error is wrapped whole on lines of its own where it does not fit beside', () => {
    const error = 'log feed refused: the daemon answered 500 internal_error while following the log';
    for (const width of [20, 30, 40]) {
      const l = logFooterLayout({ paused: false, held: 0, counts: '3', error, summary: SUMMARY }, width, 2, 6);
      const frame = frameOf(<LogFooter layout={l} width={width} />);
      const shown = frame.split('\n');
      for (const text of shown) expect(textWidth(text), `${width}: ${text}`).toBeLessThanOrEqual(width);
      expect(shown, `${width}`).toHaveLength(footerLines(l));
      expect(frame.replace(/\s+/g, ' '), `${width}:\n${frame}`).toContain(error);
    }
    // beside the counts where it fits whole
    const wide = logFooterLayout({ paused: false, held: 0, counts: '3', error: 'feed refused', summary: SUMMARY }, 80, 2, 2);
    expect(wide.error).toBe(' · feed refused');
    expect(wide.errorBelow).toEqual([]);
    // past its lines the last ends in …
    expect(logFooterLayout({ paused: false, held: 0, counts: '3', error, summary: SUMMARY }, 20, 2, 2).errorBelow.at(-1)!.endsWith('…')).toBe(true);
  });

  it('the summary takes one line whatever it says, so the table keeps its rows', () => {
    const unavailable = 'internal_error: the log directory could not be read';
    for (const width of [20, 30, 40, 80]) {
      for (const summary of [undefined, SUMMARY, { ...SUMMARY, staleSince: '12:30:05' }, { unavailable }]) {
        const l = logFooterLayout({ paused: false, held: 0, counts: '3', summary }, width, 2, 6);
        const frame = frameOf(<LogFooter layout={l} width={width} />);
        expect(frame.split('\n'), `${width}:\n${frame}`).toHaveLength(2);
        expect(footerLines(l)).toBe(2);
      }
    }
  });
});

describe('the Log footer summary line', () => {
  const text = (l: ReturnType<typeof summaryLine>) => l.map((p) => p.text).join('');
  const figures = recentStats(report(3, 1, 100, 200));

  it('why there are no figures, cut with … to the line', () => {
    const why = 'internal_error: the log directory could not be read';
    expect(text(summaryLine({ unavailable: why }, 80))).toBe(`stats unavailable: ${why}`);
    const cut = summaryLine({ unavailable: why }, 30);
    expect(text(cut)).toBe('stats unavailable: internal_e…');
    expect(textWidth(text(summaryLine({ unavailable: why }, 40)))).toBeLessThanOrEqual(40);
    expect(text(summaryLine({ unavailable: why }, 40)).endsWith('…')).toBe(true);
    expect(cut.every((p) => p.failed)).toBe(true);
  });

  it('the last figures after a failed poll: marked stale with their time first, the figures shortened to fit beside', () => {
    expect(summaryLine({ figures }, 80)).toEqual([{ text: 'last 5 min: 0.6 req/min · errors 33% · p50 100ms · p95 200ms', failed: false }]);
    const stale = summaryLine({ figures, staleSince: '12:30:05' }, 80);
    expect(stale[0]).toEqual({ text: 'stale 12:30:05', failed: true });
    expect(text(stale)).toBe('stale 12:30:05 · last 5 min: 0.6 req/min · errors 33% · p50 100ms · p95 200ms');
    for (const width of [20, 30, 40, 60, 120]) {
      const line = text(summaryLine({ figures, staleSince: '12:30:05' }, width));
      expect(textWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
      expect(line, `${width}`).toMatch(/^stale/);
    }
    expect(text(summaryLine({ figures, staleSince: '12:30:05' }, 40))).toBe('stale 12:30:05 · 5m: 0.6/min · err 33%');
    expect(text(summaryLine({ figures, staleSince: '12:30:05' }, 20))).toBe('stale · 5m 0.6/min');
  });
});
