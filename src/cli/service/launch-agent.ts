/**
 * The launchd agent that starts the daemon at login (macOS). Pure: the text of
 * ~/Library/LaunchAgents/dev.svc-proxy.daemon.plist from the daemon's launch and environment.
 *
 * - `RunAtLoad`: it starts when loaded (at login, and at `service install`).
 * - `KeepAlive` with `SuccessfulExit` false: launchd starts it again after a crash, not after
 *   `svc-proxy stop` or a daemon that found another serving the state dir (both exit 0);
 *   `ThrottleInterval` spaces the restarts 10 s apart.
 * - Output appended to daemon.log; `ExitTimeOut`: the drain and a margin before launchd kills it.
 */
import type { ServiceDefinition } from './service-definition.js';

export const LAUNCHD_LABEL = 'dev.svc-proxy.daemon';

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const str = (text: string): string => `<string>${xml(text)}</string>`;

export function plistEnvironmentEntry(name: string, value: string): string {
  return `      <key>${xml(name)}</key>\n      ${str(value)}`;
}

export function launchAgentPlist(def: ServiceDefinition): string {
  const env = Object.entries(def.env).map(([name, value]) => plistEnvironmentEntry(name, value));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- Written by `svc-proxy service install`; `svc-proxy service uninstall` removes it. -->',
    '<plist version="1.0">',
    '  <dict>',
    '    <key>Label</key>',
    `    ${str(LAUNCHD_LABEL)}`,
    '    <key>ProgramArguments</key>',
    '    <array>',
    ...[def.command, ...def.args].map((arg) => `      ${str(arg)}`),
    '    </array>',
    '    <key>EnvironmentVariables</key>',
    '    <dict>',
    ...env,
    '    </dict>',
    '    <key>RunAtLoad</key>',
    '    <true/>',
    '    <key>KeepAlive</key>',
    '    <dict>',
    '      <key>SuccessfulExit</key>',
    '      <false/>',
    '    </dict>',
    '    <key>ThrottleInterval</key>',
    '    <integer>10</integer>',
    '    <key>ExitTimeOut</key>',
    `    <integer>${Math.ceil(def.stopTimeoutMs / 1000)}</integer>`,
    '    <key>StandardOutPath</key>',
    `    ${str(def.logFile)}`,
    '    <key>StandardErrorPath</key>',
    `    ${str(def.logFile)}`,
    '  </dict>',
    '</plist>',
    '',
  ].join('\n');
}
