import { describe, expect, it } from 'vitest';
import { LogBuffer } from '../../../src/tui/log/log-buffer.js';
import { makeEntry } from '../../log/make-entry.js';

const ids = (b: LogBuffer) => b.entries().map((e) => e.id);

describe('LogBuffer', () => {
  it('shows nothing until flushed, then newest first', () => {
    const b = new LogBuffer(10);
    b.push(makeEntry({ id: 'a' }));
    b.push(makeEntry({ id: 'b' }));
    expect(b.entries()).toEqual([]);
    expect(b.pendingCount).toBe(2);
    expect(b.flush()).toBe(true);
    expect(ids(b)).toEqual(['b', 'a']);
    expect(b.flush()).toBe(false);
    b.push(makeEntry({ id: 'c' }));
    b.flush();
    expect(ids(b)).toEqual(['c', 'b', 'a']);
  });

  it('ignores an entry it already has (a backlog sent again after a reconnect)', () => {
    const b = new LogBuffer(10);
    b.push(makeEntry({ id: 'a' }));
    b.flush();
    const v = b.version;
    b.push(makeEntry({ id: 'a' }));
    expect(b.pendingCount).toBe(0);
    expect(b.flush()).toBe(false);
    expect(b.version).toBe(v);
  });

  it('keeps at most `capacity` entries, pending included, and forgets the ids it dropped', () => {
    const b = new LogBuffer(3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) b.push(makeEntry({ id }));
    expect(b.pendingCount).toBe(3);
    b.flush();
    expect(ids(b)).toEqual(['e', 'd', 'c']);
    b.push(makeEntry({ id: 'f' }));
    b.flush();
    expect(ids(b)).toEqual(['f', 'e', 'd']);
    // "a" and "c" fell off: seen again, they are new entries.
    b.push(makeEntry({ id: 'c' }));
    b.flush();
    expect(ids(b)).toEqual(['c', 'f', 'e']);
  });
});
