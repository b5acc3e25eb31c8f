/** The shell command line that runs the real `svc-proxy tui` in a tmux pane, for the end-to-end TUI tests. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sh } from '../tui/tmux.js';

const BIN = resolve(fileURLToPath(new URL('../../bin/svc-proxy.cjs', import.meta.url)));

/**
 * A clean environment (no provider keys), CI=false (Ink under CI=true draws only at exit), a marker
 * on exit; `extra` adds or replaces variables; `inherit` names variables the pane's shell passes
 * on as it has them (TMUX, which tmux sets for the pane).
 */
export function tuiCommand(home: string, extra: Record<string, string> = {}, inherit: readonly string[] = []): string {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    CI: 'false',
    // chalk turns colour off whenever CI is set (even to "false"); this asks for it back, so the
    // colour checks see what the TUI itself decides.
    FORCE_COLOR: '1',
    SVC_PROXY_HOME: home,
    SVC_PROXY_KEYCHAIN_SERVICE: `svc-proxy-test-tui-${process.pid}`,
    ...extra,
  };
  const vars = [...Object.entries(env).map(([k, v]) => `${k}=${sh(v)}`), ...inherit.map((k) => `${k}="$${k}"`)];
  return `env -i ${vars.join(' ')} ${sh(process.execPath)} ${sh(BIN)} tui; echo "TUI-EXIT=$?"; sleep 600`;
}
