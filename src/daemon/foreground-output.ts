/**
 * The foreground daemon's output streams, for when nobody reads them any more
 * (`svc-proxy start --foreground 2>&1 | tee x` with tee gone, a container's log pipe closed). A
 * write then fails with EPIPE, and an 'error' event nobody handles ends the process: every
 * request in flight cut, no drain, no request-log flush. Instead the error is swallowed, and the
 * daemon log goes on in daemon.log (where the background daemon writes it too), starting with a
 * line that says why.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { logLine } from './logger.js';

interface OutputStream {
  write(text: string, cb?: (err?: Error | null) => void): unknown;
  on?(event: 'error', listener: (err: Error) => void): unknown;
}

export interface ForegroundLog {
  /** A daemon-log writer (createDaemonLogger's `write`): the stream while it is read, then `file`. */
  write(line: string): void;
  /** Close daemon.log if it was opened. */
  close(): Promise<void>;
}

/**
 * Log to `log` (stderr) while it works, then to `file`. `others` (stdout) get their errors
 * swallowed too: the banner went there at start, and a closed pipe must not fail later writes.
 */
export function foregroundLog(log: OutputStream, file: string, others: OutputStream[] = []): ForegroundLog {
  let lost: Error | undefined;
  let out: WriteStream | undefined;
  const toFile = (line: string): void => {
    if (!out) {
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      } catch {
        // createWriteStream reports it below
      }
      out = createWriteStream(file, { flags: 'a', mode: 0o600 });
      // a log file that cannot be written must not take the daemon down either
      out.on('error', () => {});
    }
    out.write(line);
  };
  const onLost = (err: Error): void => {
    if (lost) return;
    lost = err;
    const code = (err as NodeJS.ErrnoException).code ?? err.message;
    toFile(logLine('warn', `the daemon log's output stream is closed (${code}); the daemon goes on, logging here`));
  };
  log.on?.('error', onLost);
  for (const s of others) s.on?.('error', () => {});
  return {
    write(line) {
      if (lost) return toFile(line);
      // the failed line is the first one the file gets after the note (EPIPE is reported by callback)
      log.write(line, (err) => {
        if (!err) return;
        onLost(err);
        toFile(line);
      });
    },
    close: () => (out ? new Promise<void>((resolve) => out!.end(() => resolve())) : Promise.resolve()),
  };
}
