/**
 * Running the TUI in a real terminal: alternate screen, the Ink app attached to the daemon of a
 * state dir, and a clean exit on q, Ctrl-C, SIGINT/SIGTERM/SIGHUP, or when `closeWhen` settles
 * (the foreground daemon stopped). Loaded only by `svc-proxy tui` and `start --foreground`, so no
 * other command pays for React and Ink.
 */
import { render } from 'ink';
import { AdminClient } from '../cli/admin-client.js';
import type { StatePaths } from '../config/paths.js';
import { App } from './App.js';
import { DaemonLink } from './daemon-link.js';
import { KeySafeStdin } from './key-safe-stdin.js';
import { clearScreen, enterFullScreen } from './terminal.js';
import { createTheme } from './theme.js';

export interface RunTuiOptions {
  paths: StatePaths;
  env: Record<string, string | undefined>;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** Shown on the status line (e.g. "started the daemon"). */
  notice?: string;
  /** Inside `start --foreground`: quitting stops the daemon. */
  foreground?: boolean;
  /** The TUI closes itself when this settles. */
  closeWhen?: Promise<unknown>;
}

/** True when both ends are a terminal: the TUI needs to read keys and draw. */
export function interactive(stdin: { isTTY?: boolean }, stdout: { isTTY?: boolean }): boolean {
  return stdin.isTTY === true && stdout.isTTY === true;
}

export async function runTui(opts: RunTuiOptions): Promise<void> {
  const stdin = opts.stdin ?? process.stdin;
  const stdout = opts.stdout ?? process.stdout;
  // silent: a line on stderr would tear Ink's screen; the TUI shows it is connecting
  const link = new DaemonLink({ open: () => AdminClient.connect(opts.paths, null) });
  const restore = enterFullScreen({ stdin, stdout });
  // Ink 6 dies on some Ctrl-modified keys (ink#901): it reads a copy of stdin without them.
  const keys = new KeySafeStdin(stdin);
  const instance = render(<App link={link} theme={createTheme(opts.env)} env={opts.env} notice={opts.notice} foreground={opts.foreground} />, {
    stdin: keys as unknown as NodeJS.ReadStream,
    stdout,
    exitOnCtrlC: true,
    patchConsole: true,
  });
  // Ink makes the exit promise on the first call; an exit before it would never be seen.
  const exited = instance.waitUntilExit();

  const close = () => instance.unmount();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, close);
  // After a resize the old frame may sit at the wrong place: wipe the screen and forget it (this
  // runs before Ink's own handler; the app then redraws in full at the new size).
  let size = `${stdout.columns}x${stdout.rows}`;
  const onResize = () => {
    const now = `${stdout.columns}x${stdout.rows}`;
    if (now === size) return;
    size = now;
    clearScreen(stdout);
    instance.clear();
  };
  stdout.prependListener('resize', onResize);
  void opts.closeWhen?.then(close, close);

  try {
    await exited;
  } finally {
    for (const s of signals) process.off(s, close);
    stdout.off('resize', onResize);
    link.stop();
    instance.cleanup();
    keys.release();
    restore();
  }
}
