import { describe, expect, it } from 'vitest';
import { messageUnderList } from '../../src/tui/message-under-list.js';

describe('a message under a list', () => {
  it('none shown: keeps the rows reserved for one while the heading and list leave them', () => {
    expect(messageUnderList(20, undefined, 2, 3)).toEqual({ rows: 2, heading: true });
    expect(messageUnderList(4, undefined, 2, 3)).toEqual({ rows: 1, heading: true });
    expect(messageUnderList(3, undefined, 2, 3)).toEqual({ rows: 0, heading: true });
  });

  it('shown: keeps its lines, the heading giving its row where they need it, then is cut to what is left', () => {
    expect(messageUnderList(5, 2, 2, 3)).toEqual({ rows: 2, heading: true });
    expect(messageUnderList(4, 1, 2, 3)).toEqual({ rows: 1, heading: true });
    expect(messageUnderList(4, 2, 2, 3)).toEqual({ rows: 2, heading: false });
    expect(messageUnderList(3, 2, 2, 3)).toEqual({ rows: 1, heading: false });
    expect(messageUnderList(3, 2, 2, 2)).toEqual({ rows: 2, heading: false });
  });
});
