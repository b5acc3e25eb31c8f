/**
 * TUI component tests against a real daemon: an in-process daemon (real admin API, real request
 * log and SSE feed) in a temp state dir, the App rendered by ink-testing-library at 80×24, keys
 * typed into its stdin, frames read back.
 */
import { render } from 'ink-testing-library';
import { AdminClient } from '../../src/cli/admin-client.js';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { App, type AppProps } from '../../src/tui/App.js';
import { DaemonLink } from '../../src/tui/daemon-link.js';
import { createTheme } from '../../src/tui/theme.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';

export const KEYS = {
  up: '\x1b[A',
  down: '\x1b[B',
  enter: '\r',
  escape: '\x1b',
  tab: '\t',
  shiftTab: '\x1b[Z',
  backspace: '\x7f',
  shiftUp: '\x1b[1;2A',
  shiftDown: '\x1b[1;2B',
  home: '\x1b[H',
  end: '\x1b[F',
} as const;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Let Ink and React finish with what was typed: Ink reads stdin and renders synchronously (legacy
 * root, debug output), flushes a lone Escape on the next setImmediate, and React runs the effects
 * of a commit (a new field's key handlers) on one after that. A few turns of the event loop cover
 * all three, where a fixed 25 ms per key made the TUI tests mostly sleep.
 */
export async function settleInk(): Promise<void> {
  for (let i = 0; i < 4; i++) await new Promise<void>((r) => setImmediate(r));
}

export type Rendered = ReturnType<typeof render>;

export interface TuiHarness {
  d: InProcessDaemon;
  link: DaemonLink;
  ui: Rendered;
  frame(): string;
  /** Type keys one by one (each its own chunk, as a person types), letting React settle. */
  press(...keys: string[]): Promise<void>;
  /** Text typed as one chunk (a paste). */
  type(text: string): Promise<void>;
  waitFor(check: (frame: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  /** Put entries into the daemon's real request log (they reach the TUI over the SSE feed). */
  log(...entries: RequestLogEntry[]): void;
  close(): Promise<void>;
}

export interface HarnessOptions extends Partial<Omit<AppProps, 'link' | 'theme'>> {
  env?: Record<string, string | undefined>;
  daemon?: InProcessDaemon;
}

export async function startTui(opts: HarnessOptions = {}): Promise<TuiHarness> {
  const d = opts.daemon ?? (await startInProcess());
  const link = new DaemonLink({ open: () => AdminClient.connect(d.daemon.paths, null), retryMs: 100 });
  const { env, daemon: _ignored, ...appProps } = opts;
  const ui = render(
    <App link={link} theme={createTheme(env ?? {})} env={env} size={{ columns: 80, rows: 24 }} feed={{ flushMs: 50 }} statsPollMs={300} {...appProps} />,
  );
  const frame = () => ui.lastFrame() ?? '';
  const h: TuiHarness = {
    d,
    link,
    ui,
    frame,
    async press(...keys) {
      for (const k of keys) {
        ui.stdin.write(k);
        await settleInk();
      }
    },
    async type(text) {
      ui.stdin.write(text);
      await settleInk();
    },
    async waitFor(check, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const f = frame();
        if (check(f)) {
          // What is on screen is committed; give its effects (key handlers of a new field) a moment.
          await settleInk();
          return f;
        }
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last frame:\n${f}`);
        await sleep(20);
      }
    },
    log(...entries) {
      for (const e of entries) d.deps.log(e);
    },
    async close() {
      ui.unmount();
      ui.cleanup();
      link.stop();
      if (!opts.daemon) await d.daemon.stop('test over');
    },
  };
  // a narrow terminal's status line leaves out the word "daemon"
  await h.waitFor((f) => /● (daemon )?127\.0\.0\.1:/.test(f), 'the TUI to connect');
  return h;
}

/** Lines of a frame (ink-testing-library frames carry no trailing newline). */
/** A test's TUI and the in-process daemon it was started on, both stopped (after each test). */
export async function stopTuiAndDaemon(h: TuiHarness | undefined): Promise<void> {
  await h?.close();
  await h?.d.daemon.stop();
}

export function lines(frame: string): string[] {
  return frame.split('\n');
}
