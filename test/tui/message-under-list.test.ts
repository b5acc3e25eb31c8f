import { describe, expect, it } from 'vitest';
import { messageUnderList, roomUnderList } from '../../src/tui/message-under-list.js';

describe('a message under a list', () => {
  it('none shown: keeps the rows reserved for one while the heading and list leave them', () => {
    expect(roomUnderList(20, undefined, 2, 3)).toEqual({ rows: 2, heading: true });
    expect(roomUnderList(4, undefined, 2, 3)).toEqual({ rows: 1, heading: true });
    expect(roomUnderList(3, undefined, 2, 3)).toEqual({ rows: 0, heading: true });
  });

  it('shown: keeps its lines, the heading giving its row where they need it, then is cut to what is left', () => {
    expect(roomUnderList(5, 2, 2, 3)).toEqual({ rows: 2, heading: true });
    expect(roomUnderList(4, 1, 2, 3)).toEqual({ rows: 1, heading: true });
    expect(roomUnderList(4, 2, 2, 3)).toEqual({ rows: 2, heading: false });
    expect(roomUnderList(3, 2, 2, 3)).toEqual({ rows: 1, heading: false });
    expect(roomUnderList(3, 2, 2, 2)).toEqual({ rows: 2, heading: false });
  });
});

describe('the message a list screen shows', () => {
  const screen = { width: 80, height: 24, above: 3 };
  const long = 'word '.repeat(60).trim();

  it('says the last outcome, else why the list did not load, else nothing', () => {
    const done = { kind: 'ok', text: 'Done.' } as const;
    expect(messageUnderList({ ...screen, flash: done, loadError: 'refused', listed: true }).flash).toBe(done);
    expect(messageUnderList({ ...screen, flash: undefined, loadError: 'refused', listed: true }).flash).toEqual({ kind: 'error', text: 'refused' });
    expect(messageUnderList({ ...screen, flash: undefined, loadError: undefined, listed: true })).toEqual({ flash: undefined, reserved: 2, rows: 2, heading: true });
  });

  it('keeps the reserved rows while something else has the footer', () => {
    expect(messageUnderList({ ...screen, height: 4, flash: { kind: 'info', text: long }, loadError: undefined, listed: false })).toMatchObject({ reserved: 2, rows: 2, heading: true });
  });

  it('a notice takes the lines it needs; any other message the reserved ones', () => {
    expect(messageUnderList({ ...screen, flash: { kind: 'info', text: long }, loadError: undefined, listed: true })).toMatchObject({ reserved: 2, rows: 2, heading: true });
    // the outcome's line and the notice's four
    expect(messageUnderList({ ...screen, flash: { kind: 'info', text: 'Done.', notice: long }, loadError: undefined, listed: true })).toMatchObject({ reserved: 2, rows: 5, heading: true });
    // on a short screen it keeps the list's header and a row, the heading giving way
    expect(messageUnderList({ ...screen, height: 6, flash: { kind: 'info', text: 'Done.', notice: long }, loadError: undefined, listed: true })).toMatchObject({ rows: 4, heading: false });
  });
});
