import { describe, expect, it } from 'vitest';
import { mergeUsage, readEventUsage, readResponseUsage } from '../../src/routing/usage.js';

describe('usage for the log, from Chat upstreams that report it their own way', () => {
  it("OpenAI's prompt_tokens_details, DeepSeek's prompt_cache_hit_tokens, Moonshot's cached_tokens", () => {
    const usage = (u: Record<string, unknown>) => readResponseUsage({ usage: u }, 'chat');
    expect(usage({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: 4 } })).toEqual({ input: 10, output: 2, cached: 4 });
    expect(usage({ prompt_tokens: 10, completion_tokens: 2, prompt_cache_hit_tokens: 6, prompt_cache_miss_tokens: 4 })).toEqual({ input: 10, output: 2, cached: 6 });
    expect(usage({ prompt_tokens: 1000, completion_tokens: 20, cached_tokens: 700 })).toEqual({ input: 1000, output: 20, cached: 700 });
  });

  it("a stream chunk's usage at the top level, or (Moonshot) in its finishing choice", () => {
    expect(readEventUsage({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }, 'chat')).toEqual({ input: 3, output: 1 });
    expect(readEventUsage({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 5, completion_tokens: 2, cached_tokens: 1 } }] }, 'chat')).toEqual({
      input: 5,
      output: 2,
      cached: 1,
    });
    expect(readEventUsage({ choices: [{ index: 0, delta: { content: 'x' } }] }, 'chat')).toBeUndefined();
  });
});

describe('mergeUsage (a stream reports usage cumulatively)', () => {
  /** message_start's input, then message_delta's output and cache read, as a converted stream's relay merges them. */
  const stream = () => mergeUsage(mergeUsage(mergeUsage(undefined, { input: 250 }), { output: 7 }), { output: 9, cached: 100 });

  it('later values win field by field, and the first is a copy', () => {
    const first = { input: 250 };
    const merged = mergeUsage(undefined, first);
    expect(merged).toEqual({ input: 250 });
    expect(merged).not.toBe(first);
    expect(stream()).toEqual({ input: 250, output: 9, cached: 100 });
    expect(mergeUsage({ input: 1 }, undefined)).toEqual({ input: 1 });
  });
});
