/**
 * A real terminal for end-to-end TUI tests: one tmux server of our own (private socket, no user
 * config) running one command in a window of a fixed size. Keys go in with send-keys, the screen
 * comes back with capture-pane (DEPENDENCIES.md §5).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Quote for sh. */
export function sh(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export class TmuxPane {
  private constructor(
    readonly socket: string,
    readonly target: string,
  ) {}

  /** Starts `command` (a shell command line) in a detached session of `columns`×`rows`. */
  static async start(command: string, opts: { columns?: number; rows?: number; name?: string } = {}): Promise<TmuxPane> {
    const socket = `svc-tui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const name = opts.name ?? 'tui';
    await run('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', name, '-x', String(opts.columns ?? 80), '-y', String(opts.rows ?? 24), command]);
    // Keep the pane (and what it showed) if the command ends.
    await run('tmux', ['-L', socket, 'set-option', '-t', name, 'remain-on-exit', 'on']);
    return new TmuxPane(socket, name);
  }

  /** The visible screen as text (`escapes` keeps colour and attribute sequences). */
  async capture(escapes = false): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, 'capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', this.target]);
    return stdout;
  }

  /** Named keys (Enter, Down, Escape, C-c…) or single characters, one send each. */
  async keys(...keys: string[]): Promise<void> {
    for (const k of keys) {
      await run('tmux', ['-L', this.socket, 'send-keys', '-t', this.target, k]);
      await new Promise((r) => setTimeout(r, 120));
    }
  }

  /** Literal text, as if pasted. */
  async text(s: string): Promise<void> {
    await run('tmux', ['-L', this.socket, 'send-keys', '-t', this.target, '-l', s]);
    await new Promise((r) => setTimeout(r, 120));
  }

  /** A tmux command on this pane's server (set-option, show-buffer…); its output. */
  async command(...args: string[]): Promise<string> {
    const { stdout } = await run('tmux', ['-L', this.socket, ...args]);
    return stdout;
  }

  async resize(columns: number, rows: number): Promise<void> {
    await run('tmux', ['-L', this.socket, 'resize-window', '-t', this.target, '-x', String(columns), '-y', String(rows)]);
  }

  async waitFor(check: (screen: string) => boolean, what: string, timeoutMs = 15_000, escapes = false): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    for (;;) {
      screen = await this.capture(escapes);
      if (check(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the terminal shows:\n${screen}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async kill(): Promise<void> {
    await run('tmux', ['-L', this.socket, 'kill-server']).catch(() => undefined);
  }
}
