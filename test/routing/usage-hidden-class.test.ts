/**
 * A stream's merged usage (mergeUsage) has one hidden class for every stream: a spread copy that
 * later gains a key gets a map of its own per call on Node 20 (protocols/shared/hidden-classes.ts).
 * In a process of its own (vitest.config.ts): files run before it in a shared one fill V8's
 * transition trees with their keys, and then any object may get a map of its own.
 */
import { describe, expect, it } from 'vitest';
import { mergeUsage } from '../../src/routing/usage.js';
import { mapsNewPerCall } from '../protocols/shared/hidden-classes.js';

describe('mergeUsage', () => {
  it("gives every stream's usage the same hidden class (no map made per stream)", () => {
    // message_start's input, then message_delta's output and cache read, as a converted stream's relay merges them
    const stream = () => mergeUsage(mergeUsage(mergeUsage(undefined, { input: 250 }), { output: 7 }), { output: 9, cached: 100 });
    expect(mapsNewPerCall(stream)).toEqual([]);
  });
});
