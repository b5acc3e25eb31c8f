/** A key create that gets no answer gives up with a message that says what may have happened. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createWithin } from '../../src/tui/keys/create-within.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createWithin', () => {
  it('rejects once the time is up, naming the key and how to revoke it', async () => {
    vi.useFakeTimers();
    const outcome = createWithin(new Promise<never>(() => {}), 'laptop', 15_000).catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(15_000);
    const err = await outcome;
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      'The daemon did not answer within 15 s. The key "laptop" may have been created without being shown: if it appears in the list, revoke it (d) and create another.',
    );
  });

  it('passes an answer (or the daemon\'s refusal) through and leaves no timer behind', async () => {
    vi.useFakeTimers();
    await expect(createWithin(Promise.resolve({ id: 'k1' }), 'a', 15_000)).resolves.toEqual({ id: 'k1' });
    await expect(createWithin(Promise.reject(new Error('taken')), 'a', 15_000)).rejects.toThrow('taken');
    expect(vi.getTimerCount()).toBe(0);
  });
});
