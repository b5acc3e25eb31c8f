/**
 * How the tab bar fits its width: the fullest of a few forms that fits whole, so a narrow terminal
 * sees every screen's key and the current screen's name rather than a row cut off mid-word. The
 * screens matter more than the name of the program, so "svc-proxy" goes before the titles do; the
 * current screen's title goes last, shortened first, so even 20 columns say which screen this is.
 */
import { SCREENS, type ScreenId } from './screens/screens.js';
import { textWidth } from '../util/text-width.js';

export interface TabSegment {
  text: string;
  /** The current screen (shown inverse). */
  current?: boolean;
  /** The program's name (shown bold, in the accent colour). */
  brand?: boolean;
}

type Form = { brand: boolean; titles: 'all' | 'current' | 'short' | 'none'; gap: string };

// Fullest first; the last is the narrowest there is (a bar still wider than that is cut at its end).
const FORMS: readonly Form[] = [
  { brand: true, titles: 'all', gap: '  ' },
  { brand: true, titles: 'all', gap: ' ' },
  { brand: false, titles: 'all', gap: ' ' },
  { brand: true, titles: 'current', gap: ' ' },
  { brand: false, titles: 'current', gap: ' ' },
  { brand: false, titles: 'short', gap: ' ' },
  { brand: false, titles: 'none', gap: ' ' },
];
const SHORT_FORM = FORMS[FORMS.length - 2]!;

function segments(current: ScreenId, form: Form): TabSegment[] {
  const out: TabSegment[] = form.brand ? [{ text: 'svc-proxy', brand: true }] : [];
  for (const s of SCREENS) {
    const isCurrent = s.id === current;
    const title = form.titles === 'all' || (form.titles === 'current' && isCurrent) ? s.title : form.titles === 'short' && isCurrent ? s.short : '';
    const label = title ? `${s.key} ${title}` : s.key;
    // the current one is padded inside its highlight, so it reads as a tab and not as run-on text
    out.push(isCurrent ? { text: ` ${label} `, current: true } : { text: label });
  }
  // the gap goes between segments; padding of the current tab already separates it a little
  return out.flatMap((seg, i) => (i === 0 ? [seg] : [{ text: form.gap }, seg]));
}

export const segmentsWidth = (segs: readonly TabSegment[]) => segs.reduce((n, s) => n + textWidth(s.text), 0);

/** The fullest form that fits `width` columns whole, else the narrowest. */
export function tabLayout(current: ScreenId, width: number): TabSegment[] {
  let segs: TabSegment[] = [];
  for (const form of FORMS) {
    segs = segments(current, form);
    if (segmentsWidth(segs) <= width) return segs;
  }
  return segs;
}

/** The columns the tabs need to name the current screen at least in short, whichever it is. */
export const TITLED_TABS_MIN = Math.max(...SCREENS.map((s) => segmentsWidth(segments(s.id, SHORT_FORM))));
