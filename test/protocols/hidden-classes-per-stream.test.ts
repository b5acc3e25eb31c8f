/**
 * Objects a stream decoder or encoder makes once per stream or per event share their hidden
 * classes across streams (shared/hidden-classes.ts). In a process of its own (vitest.config.ts), as
 * hidden-classes.test.ts is.
 */
import { describe, expect, it } from 'vitest';
import { mergeCounts, readCounts } from '../../src/protocols/messages/usage.js';
import { mapsNewPerCall } from './shared/hidden-classes.js';

describe('messages stream decoder: merged usage counts', () => {
  it('share one hidden class when message_delta brings counts message_start lacked', () => {
    // a gateway's message_start without cache counts, then its message_delta with them
    const merged = () => mergeCounts(readCounts({ input_tokens: 250, output_tokens: 1 }), readCounts({ output_tokens: 9, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 }));
    expect(merged()).toEqual({ input: 250, cacheWrite: 0, cacheRead: 100, output: 9 });
    expect(mapsNewPerCall(merged)).toEqual([]);
  });
});
