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

export function createDaemonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): DaemonLogger {
  const emit = (level: string, message: string) => write(`${new Date().toISOString()} ${level} ${message}\n`);
  return {
    info: (message) => emit('info ', message),
    warn: (message) => emit('warn ', message),
    error: (message, err) => {
      const detail = err instanceof Error ? ` — ${err.stack ?? err.message}` : err !== undefined ? ` — ${String(err)}` : '';
      emit('error', `${message}${detail}`);
    },
  };
}

/** For tests and embedding: drop everything. */
export const silentLogger: DaemonLogger = { info() {}, warn() {}, error() {} };
