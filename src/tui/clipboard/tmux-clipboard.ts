/**
 * What tmux does with a program's OSC 52 (osc52.ts), asked of the tmux server the TUI runs in
 * (found by its TMUX variable): set-clipboard on takes it into a paste buffer (and on to the
 * terminal's clipboard); else allow-passthrough (on, or a tmux before 3.3, which has no such
 * option and always passes it) hands the wrapped copy to the terminal; else tmux drops both.
 * Asked on each copy, as the options can change while the TUI runs.
 */
import { execFile } from 'node:child_process';

export type TmuxClipboard = 'buffer' | 'passthrough' | 'dropped';

type Env = Record<string, string | undefined>;

/** An option's value, or an Error (tmux refused the question: an option it does not have). */
function option(args: string[], env: Env): Promise<string | Error> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['show-options', ...args], { env, timeout: 2_000 }, (err, stdout) => {
      if (!err) return resolve(stdout.trim());
      // no tmux to ask: what it does is unknown
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err.killed) return reject(err);
      resolve(err);
    });
  });
}

/** Undefined where tmux cannot be asked. */
export async function tmuxClipboard(env: Env): Promise<TmuxClipboard | undefined> {
  try {
    const setClipboard = await option(['-gv', 'set-clipboard'], env);
    // every tmux has this option: a refusal is a server that cannot be reached
    if (setClipboard instanceof Error) return undefined;
    if (setClipboard === 'on') return 'buffer';
    const pane = env.TMUX_PANE ? ['-t', env.TMUX_PANE] : [];
    const passthrough = await option(['-Apv', ...pane, 'allow-passthrough'], env);
    if (passthrough instanceof Error) return 'passthrough';
    return passthrough === 'on' || passthrough === 'all' ? 'passthrough' : 'dropped';
  } catch {
    return undefined;
  }
}
