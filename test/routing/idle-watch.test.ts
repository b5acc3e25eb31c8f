import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleWatch } from '../../src/routing/idle-watch.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('IdleWatch', () => {
  it('calls silence once the count has not moved for the whole limit, never before, at most a quarter after', () => {
    let chunks = 1;
    const silent = vi.fn();
    new IdleWatch(400, () => chunks, () => false, silent);
    vi.advanceTimersByTime(250);
    chunks++; // a chunk at 250 ms
    vi.advanceTimersByTime(399); // 649 ms: 399 ms of silence
    expect(silent).not.toHaveBeenCalled();
    vi.advanceTimersByTime(101); // 750 ms: 500 ms of silence, the limit plus a quarter at most
    expect(silent).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(silent).toHaveBeenCalledTimes(1);
  });

  it('does not count the time a reader keeps the stream paused', () => {
    let paused = true;
    const silent = vi.fn();
    new IdleWatch(400, () => 1, () => paused, silent);
    vi.advanceTimersByTime(5000);
    expect(silent).not.toHaveBeenCalled();
    paused = false;
    vi.advanceTimersByTime(400);
    expect(silent).toHaveBeenCalledTimes(1);
  });

  it('stops for good when stopped', () => {
    const silent = vi.fn();
    new IdleWatch(400, () => 1, () => false, silent).stop();
    vi.advanceTimersByTime(5000);
    expect(silent).not.toHaveBeenCalled();
  });
});
