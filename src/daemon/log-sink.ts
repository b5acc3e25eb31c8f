/**
 * The daemon's request log (src/log/): ProxyDeps.log records into it, the admin API reads and
 * streams it. Its file follows config.json's settings on every batch (hot reload); a log that
 * cannot be written is reported once in the daemon log and the proxy keeps serving.
 */
import type { RequestLogEntry } from '../log/entry.js';
import { logsDir } from '../log/paths.js';
import { createRequestLog, type RequestLog } from '../log/writer.js';
import type { ConfigStore } from '../config/store.js';
import type { StatePaths } from '../config/paths.js';
import type { DaemonLogger } from './logger.js';

export interface LogSink extends RequestLog {
  /** Enqueue one entry; never throws, never blocks (same as record). */
  write(entry: RequestLogEntry): void;
}

export interface LogSinkDeps {
  paths: StatePaths;
  store: ConfigStore;
  logger: DaemonLogger;
  /** `start --log-bodies`: log bodies (redacted) for this run whatever config.json says. */
  logBodies?: boolean;
}

export async function createLogSink(deps: LogSinkDeps): Promise<LogSink> {
  const dir = logsDir(deps.paths.dir);
  const log = createRequestLog({
    dir,
    settings: () => {
      const s = deps.store.current().settings;
      return deps.logBodies ? { ...s, logBodies: true } : s;
    },
    onError: (err) => deps.logger.error(`request log: cannot write to ${dir}; entries stay in memory only until it works again (reported once)`, err),
    onRecover: () => deps.logger.info(`request log: writing to ${dir} again`),
  });
  return { ...log, write: log.record };
}
