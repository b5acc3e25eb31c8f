import { describe, expect, it } from 'vitest';
import { SLEEP_THRESHOLD_MS, SleepDetector } from '../../src/providers/sleep-detector.js';

/** Clocks the test moves: `run` advances both (awake), `sleep` only the wall clock, `setWall` steps it. */
function fakeClocks() {
  const t = { wall: 1_700_000_000_000, mono: 5_000 };
  return {
    clocks: { wallMs: () => t.wall, monoMs: () => t.mono },
    run(ms: number) {
      t.wall += ms;
      t.mono += ms;
    },
    sleep(ms: number) {
      t.wall += ms;
    },
    setWall(delta: number) {
      t.wall += delta;
    },
  };
}

describe('SleepDetector', () => {
  it('says nothing while the machine is awake, however long between checks', () => {
    const c = fakeClocks();
    const d = new SleepDetector(c.clocks);
    c.run(3_600_000);
    expect(d.check()).toBeUndefined();
    c.run(1);
    expect(d.check()).toBeUndefined();
  });

  it('tells how long the machine slept since the last check, once', () => {
    const c = fakeClocks();
    const d = new SleepDetector(c.clocks);
    c.run(20_000);
    c.sleep(45 * 60_000);
    c.run(2_000);
    expect(d.check()).toBe(45 * 60_000);
    c.run(5_000);
    expect(d.check()).toBeUndefined();
  });

  it('takes clock adjustments below the threshold, and a clock set back, for no sleep', () => {
    const c = fakeClocks();
    const d = new SleepDetector(c.clocks);
    c.run(1_000);
    c.setWall(SLEEP_THRESHOLD_MS - 1);
    expect(d.check()).toBeUndefined();
    c.setWall(-3_600_000);
    expect(d.check()).toBeUndefined();
    c.sleep(SLEEP_THRESHOLD_MS);
    expect(d.check()).toBe(SLEEP_THRESHOLD_MS);
  });
});
