/**
 * The systemd user unit that starts the daemon at login (Linux). Pure: the text of
 * ~/.config/systemd/user/svc-proxy.service from the daemon's launch and the service's environment.
 *
 * - `Restart=on-failure`: a crash brings the daemon back in 5 s; `svc-proxy stop` (exit 0) does not,
 *   nor a daemon that found another already serving the state dir (also exit 0). Five failed starts
 *   within a minute (a port another program holds) stop the retries.
 * - Output appended to daemon.log, where `svc-proxy` points for the daemon's own log; a path systemd
 *   cannot take there (whitespace) leaves it in the journal.
 * - `TimeoutStopSec`: the daemon's drain, and 10 s more to write its last lines, before systemd kills it.
 */
import type { ServiceDefinition } from './service-definition.js';

/** The unit's name for `systemctl --user`. */
export const SYSTEMD_UNIT = 'svc-proxy.service';

/** `%` starts a specifier everywhere; `$` a variable in a command's arguments (not in its path). */
function escapeSpecifiers(text: string): string {
  return text.replace(/%/g, '%%');
}

function quoted(text: string): string {
  return `"${escapeSpecifiers(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function argumentWord(text: string): string {
  return quoted(text).replace(/\$/g, '$$$$');
}

/**
 * systemd refuses to run a program whose path holds a quote or a backslash ("Executable name
 * contains special characters", systemd 252), however it is quoted.
 */
export function systemdExecutableProblem(path: string): string | undefined {
  return /["'\\]/.test(path) ? `systemd cannot run a program whose path holds a quote or a backslash: ${path}` : undefined;
}

/** A log path systemd's `append:` takes as written. */
function appendablePath(path: string): boolean {
  return path.startsWith('/') && !/[\s"'\\]/.test(path);
}

export function systemdEnvironmentLine(name: string, value: string): string {
  return `Environment=${quoted(`${name}=${value}`)}`;
}

export function systemdUnit(def: ServiceDefinition): string {
  const lines = [
    '# Written by `svc-proxy service install`; `svc-proxy service uninstall` removes it.',
    '[Unit]',
    'Description=svc-proxy: one localhost proxy for coding tools and model providers',
    'StartLimitIntervalSec=60',
    'StartLimitBurst=5',
    '',
    '[Service]',
    'Type=exec',
    `ExecStart=${[quoted(def.command), ...def.args.map(argumentWord)].join(' ')}`,
    ...Object.entries(def.env).map(([name, value]) => systemdEnvironmentLine(name, value)),
    'ExecReload=/bin/kill -HUP $MAINPID',
    'Restart=on-failure',
    'RestartSec=5',
    `TimeoutStopSec=${Math.ceil(def.stopTimeoutMs / 1000)}`,
    'UMask=0077',
  ];
  if (appendablePath(def.logFile)) {
    const target = `append:${escapeSpecifiers(def.logFile)}`;
    lines.push(`StandardOutput=${target}`, `StandardError=${target}`);
  }
  lines.push('', '[Install]', 'WantedBy=default.target', '');
  return lines.join('\n');
}
