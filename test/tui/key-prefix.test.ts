import { describe, expect, it } from 'vitest';
import { clipPrefixCell, prefixCell } from '../../src/tui/key-prefix.js';

describe("a key's prefix in a table cell", () => {
  const cell = prefixCell('sk-svc-proxy-a1b2');
  it('is whole, with … for the rest of the key, where it fits', () => {
    expect(clipPrefixCell(cell, 30)).toBe('sk-svc-proxy-a1b2…');
    expect(clipPrefixCell(cell, 18)).toBe('sk-svc-proxy-a1b2…');
  });

  it('keeps its end where it does not: the start is the same for every key', () => {
    expect(clipPrefixCell(cell, 5)).toBe('…a1b2');
    expect(clipPrefixCell(cell, 4)).toBe('…1b2');
    expect(clipPrefixCell(cell, 10)).toBe('…roxy-a1b2');
  });
});
