/**
 * The daemon itself, in-process: loads the config, builds the credential cache, the key verifier,
 * the proxy handler and the admin API, listens, writes its runtime files, follows edits of
 * config.json, flushes key last-used times in batches, and drains gracefully on stop.
 * `main.ts` runs it as a background process; `start --foreground` and tests run it directly.
 */
import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-write.js';
import { baseUrls, isLoopbackHost, type BaseUrls } from '../config/base-urls.js';
import { ConfigFileError } from '../config/errors.js';
import { ensureStateDir, statePaths, type StatePaths } from '../config/paths.js';
import { tightenedMessage } from '../config/private-mode.js';
import type { Config } from '../config/schema.js';
import { ConfigStore } from '../config/store.js';
import { packageVersion } from '../config/version.js';
import { writeLastUsed } from '../keys/operations.js';
import { UnsavedRevocations } from '../keys/unsaved-revocations.js';
import { KeyVerifier } from '../keys/verifier.js';
import type { SleepClocks } from '../providers/sleep-detector.js';
import { watchNetwork, type NetworkWatchOptions } from '../providers/network-watch.js';
import { dropConnectionsFrom, trackUpstreamSockets } from '../providers/stranded-connections.js';
import { retireUpstreamConnections, watchUpstreamSleep } from '../providers/upstream-routes.js';
import { proxyStatusLines } from '../providers/upstream-proxy.js';
import { createProxyHandler, type ProxyDeps, type ProxyHandler } from '../routing/proxy-handler.js';
import { CredentialCache, credentialSlugs, describeCredentialChanges, type RefreshOutcome } from '../secrets/cache.js';
import { CredentialStore } from '../secrets/credentials.js';
import { CredentialFile } from '../secrets/file-store.js';
import { createKeychain, DEFAULT_KEYCHAIN_SERVICE, type KeychainStatus } from '../secrets/keychain.js';
import type { AdminContext, ConfigProblem, ReloadOutcome } from '../server/admin/context.js';
import { lazyAdminListener } from '../server/admin/lazy-listener.js';
import { ProxyServer } from '../server/proxy-server.js';
import { fileSignature, watchStateFile, type StateFileWatchOptions } from './state-file-watcher.js';
import { processIdleCollector } from './idle-collector.js';
import { loadIssuers, saveIssuersPeriodically } from './issuers-file.js';
import { loadMallocTrim } from './malloc-trim.js';
import { reduceHeap } from './reduce-heap.js';
import { createLogSink } from './log-sink.js';
import { applyDaemonV8Settings } from './v8-settings.js';
import { releaseSpareHttpParsers } from './http-parser-pool.js';
import { createDaemonLogger, type DaemonLogger } from './logger.js';
import { RUNTIME_FILE_CHECK_MS, claimPidFile, processStartTime, releaseRuntimeFiles, restoreRuntimeFiles, writeRuntimeInfoNow, type RuntimeInfo } from './runtime-file.js';

type Env = Record<string, string | undefined>;

const toMb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;

export interface StartDaemonOptions {
  stateDir: string;
  /** Explicit --host (a non-loopback address is only honoured when given here). */
  host?: string;
  /** Explicit --port (0 = any free port). */
  port?: number;
  /** `start --log-bodies`: bodies (redacted) in the request log for this run. */
  logBodies?: boolean;
  env?: Env;
  logger?: DaemonLogger;
  /** Replace the routing core (tests). */
  createProxyHandler?: (deps: ProxyDeps) => ProxyHandler;
  /** How often key last-used times are written (default 30 s). */
  lastUsedFlushMs?: number;
  /** How often daemon.pid and daemon.json are looked for, and written again if deleted (default 5 s). */
  runtimeFileCheckMs?: number;
  /** The clocks that tell the machine slept (tests; sleep-detector.ts). */
  sleepClocks?: SleepClocks;
  /** Where and how often the network is looked at (tests; network-watch.ts). */
  networkWatch?: NetworkWatchOptions;
  /** How config.json and credentials.json are watched (tests; state-file-watcher.ts). */
  stateFileWatch?: StateFileWatchOptions;
}

export interface RunningDaemon {
  pid: number;
  host: string;
  port: number;
  baseUrls: BaseUrls;
  paths: StatePaths;
  store: ConfigStore;
  /** Re-read config.json (SIGHUP); an invalid file is reported and the last good config kept. */
  reload(): Promise<void>;
  /** Graceful stop; safe to call more than once. */
  stop(reason?: string): Promise<void>;
  /** Resolves once the daemon has stopped (by stop() or an admin shutdown request). */
  stopped: Promise<void>;
}

export class StartError extends Error {}

const KEYCHAIN_TIMEOUT_MS = 5_000;
/** How often the proof issuers are written when they changed (and once more at stop). */
const ISSUERS_SAVE_MS = 10_000;

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

export async function startDaemon(opts: StartDaemonOptions): Promise<RunningDaemon> {
  const env = opts.env ?? process.env;
  const logger = opts.logger ?? createDaemonLogger();
  const paths = statePaths(opts.stateDir);
  await ensureStateDir(paths.dir, (message) => logger.warn(message));
  // The watchers' baselines, taken before each file is read: an edit after the read still moves
  // them, and the watchers' first look does not read an unchanged file again.
  let configSeen = await fileSignature(paths.config);
  const store = await ConfigStore.open(paths);
  const initial = store.current().settings;

  const host = opts.host ?? initial.host;
  if (opts.host === undefined && !isLoopbackHost(host)) {
    throw new StartError(
      `settings.host in ${paths.config} is "${host}". Listening beyond loopback must be asked for explicitly: svc-proxy start --host ${host}`,
    );
  }
  const port = opts.port ?? initial.port;

  await claimPidFile(paths);
  const cleanups: Array<() => Promise<void> | void> = [() => releaseRuntimeFiles(paths, process.pid)];
  const undo = async () => {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
  };

  try {
    if (!store.existsOnDisk) {
      // a first start writes the defaults: that write is what the watcher starts from
      await store.ensureFile();
      configSeen = await fileSignature(paths.config);
    }
    const adminToken = randomBytes(32).toString('base64url');
    const tokenWritten = await writeFileAtomic(paths.adminToken, `${adminToken}\n`, { mode: 0o600, secret: true });
    const tokenTightened = tightenedMessage(paths.adminToken, tokenWritten, 'the admin API token');
    if (tokenTightened) logger.warn(tokenTightened);
    cleanups.push(() => unlink(paths.adminToken).catch(() => {}));

    // Credentials: env > keychain > insecure file, cached for the synchronous request path.
    const keychain = createKeychain(env.SVC_PROXY_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE);
    const credentials = new CredentialCache(new CredentialStore(keychain, new CredentialFile(paths.credentialsFile, (message) => logger.warn(message)), env));
    let keychainStatus: KeychainStatus = await withTimeout(keychain.probe(), KEYCHAIN_TIMEOUT_MS, {
      available: false,
      reason: 'the keychain did not answer in time',
    });
    if (!keychainStatus.available) logger.warn(`OS keychain not usable: ${keychainStatus.reason}`);
    const credentialsSeen = await fileSignature(paths.credentialsFile);
    await credentials.refresh(credentialSlugs(store.current()), KEYCHAIN_TIMEOUT_MS);
    // A keychain can come and go (unlocked later, D-Bus restarted): re-probe in the background
    // when the reported state is older than this.
    let keychainProbedAt = Date.now();
    const refreshKeychainStatus = async () => {
      keychainProbedAt = Date.now();
      keychainStatus = await withTimeout(keychain.probe(), KEYCHAIN_TIMEOUT_MS, keychainStatus);
    };
    const currentKeychainStatus = (): KeychainStatus => {
      if (Date.now() - keychainProbedAt > 30_000) void refreshKeychainStatus();
      return keychainStatus;
    };

    const verifier = new KeyVerifier(store.current().keys);

    const logSink = await createLogSink({ paths, store, logger, logBodies: opts.logBodies === true });
    if (opts.logBodies || store.current().settings.logBodies) logger.warn('request and response bodies are being logged (credentials and images redacted); for debugging only');
    cleanups.push(() => logSink.close());

    // `--log-bodies` overrides settings.logBodies for this run, for the routing core as well.
    const withFlags = (c: Config): Config => (opts.logBodies ? { ...c, settings: { ...c.settings, logBodies: true } } : c);
    let proxyConfig = withFlags(store.current());
    store.onChange((c) => (proxyConfig = withFlags(c)));
    const warn = (message: string): void => logger.warn(message);
    const issuers = await loadIssuers(paths.proofIssuers, warn);
    const proxy = (opts.createProxyHandler ?? createProxyHandler)({
      config: () => proxyConfig,
      credential: (slug) => credentials.get(slug),
      credentialProblem: (slug) => credentials.envProblem(slug) ?? credentials.storedProblemNow(slug)?.text,
      log: (entry) => logSink.write(entry),
      issuers,
    });
    cleanups.push(() => proxy.close());
    // which proxy upstream calls go through, in daemon.log at start and whenever it changes
    let proxyWords = '';
    const logUpstreamProxy = (): void => {
      const status = proxy.upstreamProxy?.();
      const lines = status ? proxyStatusLines(status) : [];
      const words = lines.join('\n') || 'upstream proxy: none, upstream calls connect directly';
      if (words === proxyWords) return;
      if (proxyWords !== '' || lines.length > 0) for (const line of words.split('\n')) logger.info(line);
      proxyWords = words;
    };
    store.onChange((c) => {
      proxy.reconfigure?.(withFlags(c));
      logUpstreamProxy();
    });
    // a sleep of the machine or a change of network leaves the pooled upstream connections dead
    const retiredAfter = (what: string, retired: number): void =>
      logger.info(`${what}: the upstream connections opened before it are not used again (${retired} pool${retired === 1 ? '' : 's'} retired)`);
    const stopSleepWatch = watchUpstreamSleep((sleptMs, retired) => {
      const slept = sleptMs >= 120_000 ? `${Math.round(sleptMs / 60_000)} min` : `${Math.round(sleptMs / 1000)} s`;
      retiredAfter(`the machine slept for about ${slept}`, retired);
    }, opts.sleepClocks);
    cleanups.push(async () => stopSleepWatch());
    const stopSocketTracking = trackUpstreamSockets();
    cleanups.push(async () => stopSocketTracking());
    const stopNetworkWatch = watchNetwork(({ added, removed }) => {
      const names = (list: string[]) => [...new Set(list.map((a) => a.slice(0, a.indexOf(' '))))].join(', ');
      const what = [added.length ? `new on ${names(added)}` : '', removed.length ? `gone from ${names(removed)}` : ''].filter(Boolean).join('; ');
      retiredAfter(`the network changed (addresses ${what})`, retireUpstreamConnections());
      const cut = dropConnectionsFrom(removed.map((a) => a.slice(a.indexOf(' ') + 1)));
      if (cut) logger.info(`${cut} upstream connection${cut === 1 ? '' : 's'} made from an address now gone ${cut === 1 ? 'was' : 'were'} cut: ${cut === 1 ? 'its request fails' : 'their requests fail'} as a reset now rather than at the idle timeout`);
    }, opts.networkWatch);
    cleanups.push(async () => stopNetworkWatch());
    const issuersSaver = saveIssuersPeriodically(issuers, paths.proofIssuers, ISSUERS_SAVE_MS, warn);
    // runs before the pools close (cleanups run last first), once the drain let every answer finish
    cleanups.push(async () => {
      issuersSaver.stop();
      await issuersSaver.save();
    });

    let configProblem: ConfigProblem | null = null;
    // Filled in once stop() exists; the admin API only needs a way to ask for it.
    const shutdown = { request: (): void => undefined };
    const startedAt = new Date();
    const daemonInfo = { pid: process.pid, version: packageVersion(), host, port, startedAt, stateDir: paths.dir };

    /** Keys in force: config.json's active ones but those revoked while it could not be written. */
    const unsaved = new UnsavedRevocations();
    const applyKeys = (config: Config): void => {
      const withheld = unsaved.withheld();
      verifier.load(config.keys, withheld);
      // "a revoked key stops at once": its answers under way too, not only its next request
      const ended = proxy.endRevoked?.(new Set(config.keys.filter((k) => !k.revoked && !withheld.has(k.id)).map((k) => k.id))) ?? 0;
      if (ended > 0) logger.info(`ended ${ended} request${ended === 1 ? '' : 's'} of a revoked service key`);
    };

    const reloadConfig = async (): Promise<ReloadOutcome> => {
      try {
        const changed = await store.reload();
        if (configProblem) logger.info('config.json is valid again');
        configProblem = null;
        if (unsaved.withheld().size > 0 && (await unsaved.save(store))) logger.info('the key revocations held while config.json could not be written are saved');
        if (changed) logger.info('config.json changed on disk: reloaded');
        const unknown = changed ? store.unknownInLastEdit : [];
        for (const key of changed ? store.duplicatesInLastEdit : []) logger.warn(`config.json: ${key} appears twice; the last one is used`);
        if (unknown.length > 0) logger.warn(`config.json: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a setting' : 'are not settings'} svc-proxy knows, ignored (a typo?); svc-proxy config check lists what the file has wrong`);
        return { changed, config: store.current() };
      } catch (err) {
        if (err instanceof ConfigFileError) {
          if (configProblem?.message !== err.message) logger.error(`config.json edit not applied, keeping the last good config: ${err.message}`);
          configProblem = { message: err.message, at: new Date().toISOString() };
        }
        throw err;
      }
    };

    const trim = loadMallocTrim();
    applyDaemonV8Settings();
    const collector = processIdleCollector(
      async () => releaseSpareHttpParsers() + ((await proxy.shedIdleConnections?.()) ?? 0),
      (force) => reduceHeap(force) !== 'full-young-kept',
      trim,
      () => proxy.requestsInFlight?.() ?? 0,
    );
    const ctx: AdminContext = {
      store,
      keys: verifier,
      credentials,
      log: logSink,
      daemon: daemonInfo,
      configProblem: () => configProblem,
      keychain: currentKeychainStatus,
      memory: () => {
        const m = process.memoryUsage();
        return {
          rssMb: toMb(m.rss),
          heapUsedMb: toMb(m.heapUsed),
          idleCollections: collector.collections,
          idleTrims: trim ? collector.trims : null,
          requestBodyBytes: proxy.bodyBytesHeld?.() ?? 0,
          requestBodyBudgetBytes: store.current().settings.bodyBudgetBytes,
        };
      },
      upstreamProxy: () => proxy.upstreamProxy?.(),
      ...(proxy.statedControls ? { statedControls: proxy.statedControls } : {}),
      reloadConfig,
      revokeKey: async (ref) => {
        const result = await unsaved.revoke(store, ref, () => applyKeys(store.current()));
        if (!result.saved) logger.warn(`service key ${result.id} revoked in the daemon; config.json cannot be written (${result.unsavedBecause}), so it is saved once the file is valid again`);
        return result;
      },
      requestShutdown: () => setImmediate(() => shutdown.request()),
    };
    const server = new ProxyServer({
      verifier,
      proxy,
      other: lazyAdminListener(ctx, {
        adminToken,
        version: daemonInfo.version,
        report: (err) => logger.error('admin API error', err),
      }),
      settings: store.current().settings,
      onError: (err, where) => logger.error(`unexpected error in ${where}`, err),
      log: (entry) => logSink.write(entry),
    });

    const rereadCredentials = async (): Promise<RefreshOutcome> => {
      const outcome = await credentials.refresh(credentialSlugs(store.current()), KEYCHAIN_TIMEOUT_MS);
      const why = credentials.unreadableFile?.replace(/\.$/, '') ?? 'the OS keychain could not be read';
      if (outcome.kept.length > 0) logger.warn(`${why}; keeping the credentials already loaded for ${outcome.kept.join(', ')}`);
      return outcome;
    };

    // Config changes (admin writes and hand edits alike) take effect before the write returns.
    let slugsKey = credentialSlugs(store.current()).join('\n');
    let listening = { host, port };
    store.onChange((config: Config) => {
      applyKeys(config);
      // a revocation held while the file could not be written is written now that it can (after
      // this change's lock is let go: listeners may not write)
      if (unsaved.withheld().size > 0) setImmediate(() => void unsaved.save(store));
      server.reconfigure(config.settings);
      const nextSlugs = credentialSlugs(config);
      if (nextSlugs.join('\n') !== slugsKey) {
        slugsKey = nextSlugs.join('\n');
        void rereadCredentials().then(refreshKeychainStatus);
      }
      const wanted = { host: opts.host ?? config.settings.host, port: opts.port ?? config.settings.port };
      if (wanted.host !== listening.host || (opts.port === undefined && wanted.port !== listening.port)) {
        logger.warn(`settings.host/port changed to ${wanted.host}:${wanted.port}; restart svc-proxy to listen there`);
        listening = wanted;
      }
    });

    const procStart = processStartTime(process.pid);
    const runtimeInfoOn = (bound: number): RuntimeInfo => ({ pid: process.pid, host, port: bound, startedAt: startedAt.toISOString(), version: daemonInfo.version, ...(procStart !== undefined ? { procStart } : {}) });
    // daemon.json is written before the first request is handled: a client that got an answer
    // (then runs `svc-proxy status`, or reads the file) always finds the daemon registered
    const registerDaemon = (bound: number): void => {
      try {
        writeRuntimeInfoNow(paths, runtimeInfoOn(bound));
      } catch (err) {
        throw new StartError(`Could not write ${paths.runtimeFile}: ${(err as Error).message}`);
      }
    };
    const actualPort = await server.listen(port, host, registerDaemon).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') throw new StartError(`${host}:${port} is already in use by another program; pick another port with --port (or settings.port).`);
      if (err.code === 'EACCES') throw new StartError(`Not allowed to listen on ${host}:${port}; pick a port above 1023 with --port.`);
      if (err.code === 'EADDRNOTAVAIL') throw new StartError(`${host} is not an address of this machine.`);
      throw err;
    });
    daemonInfo.port = actualPort;
    listening = { host, port: opts.port ?? initial.port };
    const runtimeInfo = runtimeInfoOn(actualPort);
    const keepRuntimeFiles = setInterval(() => {
      restoreRuntimeFiles(paths, runtimeInfo).then(
        (written) => {
          if (written.length > 0) logger.warn(`${written.join(' and ')} had been deleted while the daemon runs; written again`);
        },
        () => {},
      );
    }, opts.runtimeFileCheckMs ?? RUNTIME_FILE_CHECK_MS);
    keepRuntimeFiles.unref();

    const watcher = watchStateFile(
      paths.config,
      () => {
        reloadConfig().catch(() => {});
      },
      { ...opts.stateFileWatch, baseline: configSeen },
    );
    // credentials.json edited by hand (no keychain): a changed or removed key holds from the next
    // request, with no look at the file on the request path
    const credentialsWatcher = watchStateFile(
      paths.credentialsFile,
      () => {
        void rereadCredentials().then((outcome) => {
          const changes = describeCredentialChanges(outcome);
          if (changes) logger.info(`credentials.json changed on disk: ${changes}`);
        });
      },
      { ...opts.stateFileWatch, baseline: credentialsSeen },
    );

    let flushWarned = false;
    const flushLastUsed = async () => {
      const batch = verifier.takeLastUsed();
      try {
        await writeLastUsed(store, batch);
        flushWarned = false;
      } catch (err) {
        verifier.restoreLastUsed(batch);
        if (!flushWarned) logger.warn(`could not record key last-used times (will retry): ${(err as Error).message}`);
        flushWarned = true;
      }
    };
    const flushTimer = setInterval(() => void flushLastUsed(), opts.lastUsedFlushMs ?? 30_000);
    flushTimer.unref();
    const stopCollector = collector.start();

    logger.info(`svc-proxy ${daemonInfo.version} listening on ${host}:${actualPort} (pid ${process.pid}, state ${paths.dir})`);
    logUpstreamProxy();
    if (!isLoopbackHost(host)) logger.warn(`listening on ${host}: reachable beyond this machine's loopback interface`);

    let stopping: Promise<void> | undefined;
    let markStopped!: () => void;
    const stopped = new Promise<void>((resolve) => (markStopped = resolve));
    const stop = (reason = 'stop requested'): Promise<void> => {
      stopping ??= (async () => {
        logger.info(`stopping (${reason}); draining in-flight requests for up to ${store.current().settings.drainTimeoutMs} ms`);
        watcher.close();
        credentialsWatcher.close();
        clearInterval(keepRuntimeFiles);
        clearInterval(flushTimer);
        stopCollector();
        logSink.endFeeds(); // open `logs --follow`/TUI feeds end now instead of holding the drain up
        const cut = await server.drain(store.current().settings.drainTimeoutMs);
        if (cut > 0) logger.warn(`closed ${cut} request(s) still running after the drain timeout`);
        await flushLastUsed();
        await undo();
        logger.info('stopped');
        markStopped();
      })();
      return stopping;
    };
    shutdown.request = () => void stop('admin shutdown request');

    return {
      pid: process.pid,
      host,
      port: actualPort,
      baseUrls: baseUrls(host, actualPort),
      paths,
      store,
      reload: () => reloadConfig().then(() => undefined),
      stop,
      stopped,
    };
  } catch (err) {
    await undo();
    throw err;
  }
}
