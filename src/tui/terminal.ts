/**
 * The terminal around the TUI: the alternate screen (so the shell's scrollback is untouched and
 * comes back on exit), and a last-resort restore if the process ends without the normal cleanup.
 */

const ENTER_ALT = '\x1b[?1049h\x1b[H\x1b[2J';
const LEAVE_ALT = '\x1b[?1049l';
const SHOW_CURSOR = '\x1b[?25h';

export interface TerminalStreams {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** Switch to the alternate screen; the returned function puts everything back (idempotent). */
export function enterFullScreen({ stdout, stdin }: TerminalStreams): () => void {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    process.removeListener('exit', restore);
    try {
      if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
    } catch {
      // stdin already closed
    }
    stdout.write(SHOW_CURSOR + LEAVE_ALT);
  };
  stdout.write(ENTER_ALT);
  // Runs even when something calls process.exit() while the TUI is up.
  process.on('exit', restore);
  return restore;
}

/** Wipe the screen (after a resize, so no half-drawn frame is left behind). */
export function clearScreen(stdout: NodeJS.WriteStream): void {
  stdout.write('\x1b[H\x1b[2J');
}
