import { describe, expect, it } from 'vitest';
import { TabBar } from '../../src/tui/components/TabBar.js';
import { SCREENS, type ScreenId } from '../../src/tui/screens/screens.js';
import { textWidth } from '../../src/util/text-width.js';
import { frameOf } from './frame-of.js';

function frameAt(width: number, current: ScreenId = 'log'): string {
  return frameOf(<TabBar current={current} width={width} />);
}

describe('TabBar', () => {
  it('keeps the key hint whole on one line at every width, shortening it only when the terminal is narrow', () => {
    for (let width = 20; width <= 100; width++) {
      const frame = frameAt(width);
      expect(frame.split('\n'), `width ${width}`).toHaveLength(1);
      expect(textWidth(frame), `width ${width}`).toBeLessThanOrEqual(width);
      if (width >= 40) expect(frame.trimEnd().endsWith(' ? help  q quit'), `width ${width}: ${frame}`).toBe(true);
      else if (width >= 23) expect(frame.trimEnd(), `width ${width}: ${frame}`).toMatch(/ \? help( {2}q quit)?$/);
      else expect(frame.trimEnd(), `width ${width}: ${frame}`).toMatch(/ \?$/);
    }
  });

  it('shows every screen in full with the name of the program where there is room', () => {
    for (const width of [80, 100]) expect(frameAt(width, 'providers'), `width ${width}`).toMatch(/^svc-proxy +1 Log +2 Keys +3 Groups +4 Providers +5 Stats +\? help {2}q quit$/);
  });

  it('at 60 columns drops the name of the program, not the titles; nothing is cut mid-word', () => {
    for (const s of SCREENS) {
      const frame = frameAt(60, s.id);
      expect(frame, s.id).toMatch(/^ ?1 Log +2 Keys +3 Groups +4 Providers +5 Stats +\? help {2}q quit$/);
      expect(frame, s.id).not.toContain('…');
    }
  });

  it('at 20 and 30 columns still names the current screen, in short where the whole title leaves no room', () => {
    for (const width of [20, 30]) {
      for (const s of SCREENS) {
        const frame = frameAt(width, s.id);
        expect(frame.includes(` ${s.key} ${s.title} `) || frame.includes(` ${s.key} ${s.short} `), `${s.id} at ${width}: ${frame}`).toBe(true);
        for (const k of ['1', '2', '3', '4', '5']) expect(frame, frame).toMatch(new RegExp(`(^| )${k}( |$)`));
        expect(frame, frame).not.toContain('…');
      }
    }
    expect(frameAt(20, 'providers').trimEnd()).toBe('1 2 3  4 Prov  5   ?');
    expect(frameAt(30, 'providers').trimEnd()).toBe('1 2 3  4 Providers  5   ? help');
  });

  it('at 40 columns keeps every key and the current screen’s title whole, the other titles giving way', () => {
    for (const s of SCREENS) {
      const frame = frameAt(40, s.id);
      expect(frame, s.id).not.toContain('…');
      expect(frame, s.id).toContain(` ${s.key} ${s.title} `);
      expect(textWidth(frame), s.id).toBeLessThanOrEqual(40);
      expect(frame.replace(` ${s.key} ${s.title} `, ` ${s.key} `).replace(/svc-proxy/, ''), s.id).toMatch(/^ *1 +2 +3 +4 +5 +\? help {2}q quit$/);
    }
    // the program's name comes back where the current title leaves it room
    expect(frameAt(40, 'log')).toMatch(/^svc-proxy +1 Log +2 3 4 5 +\? help {2}q quit$/);
  });
});
