import { describe, expect, it } from 'vitest';
import { conversationsPath } from '../../src/routing/conversations-endpoint.js';
import { modelIdOfPath } from '../../src/routing/models-endpoint.js';
import { trimSlashes, trimTrailingSlashes } from '../../src/util/slashes.js';

describe('slash trimming', () => {
  it('trims trailing slashes, or slashes at both ends', () => {
    expect(['', '/', '///', 'a', 'a/', 'a///', '/a/b//', 'http://h/v1/'].map(trimTrailingSlashes)).toEqual(['', '', '', 'a', 'a', 'a', '/a/b', 'http://h/v1']);
    expect(['', '/', '//a/b//', 'a', '/v1'].map(trimSlashes)).toEqual(['', '', 'a/b', 'a', 'v1']);
  });

  it('reads a path holding a long run of slashes in linear time (/\\/+$/ backtracks quadratically there)', () => {
    const run = '/'.repeat(50_000);
    const start = performance.now();
    expect(modelIdOfPath(`/protocol-a/v1/models/${run}x`)).toBe(`${run}x`);
    expect(conversationsPath(`/protocol-a/v1/conversations${run}x`).path).toBe(`/conversations${run}x`);
    expect(trimTrailingSlashes(`${run}x`)).toBe(`${run}x`);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
