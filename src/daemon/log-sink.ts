/**
 * Where the proxy's request-log entries go (ProxyDeps.log). Until the request log
 * (src/log/) is wired in here, entries are dropped: the request path must never block on logging.
 */
import type { RequestLogEntry } from '../log/entry.js';
import type { ConfigStore } from '../config/store.js';
import type { StatePaths } from '../config/paths.js';
import type { DaemonLogger } from './logger.js';

export interface LogSink {
  /** Enqueue one entry; never throws, never blocks. */
  write(entry: RequestLogEntry): void;
  /** Flush and close (daemon stop). */
  close(): Promise<void>;
}

export interface LogSinkDeps {
  paths: StatePaths;
  store: ConfigStore;
  logger: DaemonLogger;
}

export async function createLogSink(_deps: LogSinkDeps): Promise<LogSink> {
  return {
    write() {},
    async close() {},
  };
}
