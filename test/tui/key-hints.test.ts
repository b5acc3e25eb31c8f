import { describe, expect, it } from 'vitest';
import { fittingHints } from '../../src/tui/key-hints.js';
import { DETAIL_HINTS, LOG_HINTS } from '../../src/tui/log/footer-hints.js';
import { textWidth } from '../../src/util/text-width.js';

describe('key hints that fit', () => {
  it('keeps whole hints in order after a status, none cut', () => {
    expect(fittingHints(LOG_HINTS, 80)).toBe(' · / filter · s status · k key · space pause · Enter details');
    expect(fittingHints(LOG_HINTS, 22)).toBe(' · / filter · s status');
    expect(fittingHints(LOG_HINTS, 21)).toBe(' · / filter');
    expect(fittingHints(LOG_HINTS, 10)).toBe('');
  });

  it('uses shorter wordings where they show more hints, the fullest where they show as many', () => {
    expect(fittingHints(DETAIL_HINTS, 80, '')).toBe('Esc/Enter back to the log · ↑↓ PgUp PgDn scroll');
    // the full first hint would fit alone; the short wordings let both show
    expect(fittingHints(DETAIL_HINTS, 30, '')).toBe('Esc back · ↑↓ scroll');
    expect(fittingHints(DETAIL_HINTS, 20, '')).toBe('Esc back · ↑↓ scroll');
    expect(fittingHints(DETAIL_HINTS, 12, '')).toBe('Esc back');
    for (const cells of [8, 12, 20, 30, 47, 60]) expect(textWidth(fittingHints(DETAIL_HINTS, cells, '')), `${cells}`).toBeLessThanOrEqual(cells);
  });
});
