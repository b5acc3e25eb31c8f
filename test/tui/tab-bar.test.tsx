import { describe, expect, it } from 'vitest';
import { TabBar } from '../../src/tui/components/TabBar.js';
import { textWidth } from '../../src/util/text-width.js';
import { frameOf } from './frame-of.js';

function frameAt(width: number): string {
  return frameOf(<TabBar current="log" width={width} />);
}

describe('TabBar', () => {
  it('keeps the key hint whole on one line at every width, shortening it only when the terminal is narrow', () => {
    for (let width = 20; width <= 100; width++) {
      const frame = frameAt(width);
      expect(frame.split('\n'), `width ${width}`).toHaveLength(1);
      expect(textWidth(frame), `width ${width}`).toBeLessThanOrEqual(width);
      expect(frame.startsWith('svc-proxy'), `width ${width}`).toBe(true);
      if (width >= 40) expect(frame.trimEnd().endsWith(' ? help  q quit'), `width ${width}: ${frame}`).toBe(true);
      else expect(frame.trimEnd(), `width ${width}: ${frame}`).toMatch(/ \? help( {2}q quit)?$/);
    }
  });
});
