/** What a login service runs, whichever service manager runs it (systemd-unit.ts, launch-agent.ts). */
export interface ServiceDefinition {
  /** The Node that runs the daemon (this one, by absolute path). */
  command: string;
  /** Its V8 flags and the daemon's entry point. */
  args: readonly string[];
  /** Variables the daemon gets (service-env.ts). */
  env: Readonly<Record<string, string>>;
  /** daemon.log, where the daemon's own output goes. */
  logFile: string;
  /** How long a stop may take before the manager kills the daemon (its drain and a margin). */
  stopTimeoutMs: number;
}

/** A value a service file cannot hold on one line. */
export function hasControlCharacters(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f]/.test(text);
}

/** The daemon's files are in npx's cache (`~/.npm/_npx/<hash>/…`), which npm clears as it likes. */
export function runsFromNpxCache(def: ServiceDefinition): boolean {
  return def.args.some((arg) => /[\\/]_npx[\\/]/.test(arg));
}
