/**
 * `restart` waits for the drain as `stop` does (settings.drainTimeoutMs + a margin, one budget for
 * both): a stream still running when it is asked finishes before the new daemon starts, instead of
 * being killed at a fixed 20 s. The drain here is above 20 s, so the test runs about that long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { M, pidOf, startLean, type Lean } from './helpers.js';
import { processAlive } from '../../src/config/file-lock.js';

/** Above the 20 s restart used to wait, whatever the drain. */
const DRAIN_MS = 30_000;
/** Still running 20 s after the restart asks: 55 chunks of 5 characters, 400 ms apart. */
const SLOW = { text: 'word '.repeat(55), stream: { chunk: 5, delayMs: 400 } };

let w: Lean;
beforeAll(async () => {
  w = await startLean({ settings: { drainTimeoutMs: DRAIN_MS } });
}, 60_000);
afterAll(async () => w?.close());

describe('restart with a stream in flight', () => {
  it('lets the stream finish within the drain, then starts the new daemon', async () => {
    const oldPid = await pidOf(w.d);
    w.anthropic.next({ kind: 'turn', turn: SLOW });
    const stream = w.d.anthropic({ timeout: 60_000 }).messages.stream({ model: M.anthropic, max_tokens: 500, messages: [{ role: 'user', content: 'hi' }] });
    await new Promise<void>((resolve) => stream.once('text', () => resolve()));
    const answer = stream.finalMessage().then(
      (m) => m,
      (err: unknown) => err,
    );
    const restarted = await w.d.cli(['restart', '--port', '0'], { timeoutMs: DRAIN_MS + 20_000, allowFail: true });
    let newPid: number | undefined;
    try {
      expect(restarted.code, restarted.stderr).toBe(0);
      newPid = Number(/svc-proxy started \(pid (\d+)\)/.exec(restarted.stdout)?.[1]);
      expect(restarted.stdout).toContain(`stopped (pid ${oldPid})`);
      expect(restarted.stdout).not.toContain('killed');
      const message = await answer;
      expect(message, 'the stream was cut').toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: SLOW.text }] });
      expect(processAlive(oldPid)).toBe(false);
      expect(w.d.log).toMatch(/stopping \(.*\); draining[\s\S]*stopped/);
    } finally {
      if (newPid && processAlive(newPid)) await w.d.cli(['stop'], { timeoutMs: DRAIN_MS + 20_000 });
    }
  }, DRAIN_MS + 40_000);
});
