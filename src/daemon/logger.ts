/**
 * The daemon's own log (start, stop, reloads, errors) — one timestamped line per event on stdout,
 * which `svc-proxy start` points at daemon.log. Callers pass composed messages only: never a
 * request body, a header, or a credential.
 */
export interface DaemonLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, err?: unknown): void;
}

/** One daemon-log line: ISO time, level padded to 5, message. */
export function logLine(level: 'info' | 'warn' | 'error', message: string): string {
  return `${new Date().toISOString()} ${level.padEnd(5)} ${message}\n`;
}

export function createDaemonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): DaemonLogger {
  const emit = (level: 'info' | 'warn' | 'error', message: string) => write(logLine(level, message));
  return {
    info: (message) => emit('info', message),
    warn: (message) => emit('warn', message),
    error: (message, err) => {
      const detail = err instanceof Error ? ` — ${err.stack ?? err.message}` : err !== undefined ? ` — ${String(err)}` : '';
      emit('error', `${message}${detail}`);
    },
  };
}

/** For tests and embedding: drop everything. */
export const silentLogger: DaemonLogger = { info() {}, warn() {}, error() {} };
