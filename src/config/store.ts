/**
 * config.json through lowdb: every read is validated (and migrated), every write happens under a
 * cross-process lock on a fresh read of the file, atomically, keeping config.json.bak. A file that
 * fails to parse or validate is reported and never overwritten.
 */
import { open } from 'node:fs/promises';
import { Low, type Adapter } from 'lowdb';
import { writeFileAtomic } from './atomic-write.js';
import { ConfigFileError, OperationError } from './errors.js';
import { withFileLock } from './file-lock.js';
import { lockPathFor } from './lock-path.js';
import { CONFIG_SIZE_CAP } from './size-cap.js';
import { danglingLinkMessage, isDanglingLink } from './link-target.js';
import { duplicateKeys } from './duplicate-keys.js';
import { parseConfigText, serializeConfig } from './parse.js';
import { configSchema, defaultConfig, type Config } from './schema.js';
import type { StatePaths } from './paths.js';

export type ConfigFiles = Pick<StatePaths, 'config' | 'configBackup' | 'configLock'>;

/** lowdb adapter that validates on read and writes atomically with a backup. */
class ValidatedConfigFile implements Adapter<Config> {
  /** The file's text as last read or written by us: tells our own writes from hand edits. */
  lastText: string | null = null;
  constructor(private readonly files: ConfigFiles) {}

  async read(): Promise<Config> {
    const text = await readTextOrNull(this.files.config);
    if (text === null && this.lastText !== null) throw gone(this.files.config);
    this.lastText = text;
    return text === null ? defaultConfig() : parseConfigText(text, this.files.config).config;
  }

  async write(data: Config): Promise<void> {
    const checked = configSchema.safeParse(data);
    if (!checked.success) {
      const first = checked.error.issues[0];
      const where = first?.path.map(String).join('.') || '(top level)';
      throw new OperationError(400, 'invalid_config_change', `That change would make config.json invalid (${where}: ${first?.message}).`);
    }
    const text = serializeConfig(checked.data);
    await writeFileAtomic(this.files.config, text, { mode: 0o600, backupPath: this.files.configBackup });
    this.lastText = text;
  }
}

/**
 * The file was there and is not any more (moved away to be edited, a dotfile manager or sync tool
 * swapping it): like an invalid edit, it is reported and the configuration in force stays — the
 * defaults would refuse every service key at once — and nothing is written in its place.
 */
function gone(file: string): ConfigFileError {
  return new ConfigFileError(
    file,
    `${file} is gone (moved or deleted while svc-proxy runs): the daemon keeps the configuration it had and writes no new file in its place. Put it back; if you meant to start from the defaults, svc-proxy restart.`,
  );
}

/** The file's text, or null when there is none; what keeps it from being read is a ConfigFileError. */
export async function readTextOrNull(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    const problem = await unreadable(file, err as NodeJS.ErrnoException);
    if (problem) throw problem;
    return null;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new ConfigFileError(file, `Cannot read ${file}: it is a folder, not a file. Move it away; svc-proxy then starts from the defaults.`, 'config_unreadable');
    if (info.size > CONFIG_SIZE_CAP) throw tooLarge(file, info.size);
    return await handle.readFile('utf8');
  } catch (err) {
    throw err instanceof ConfigFileError ? err : ((await unreadable(file, err as NodeJS.ErrnoException)) ?? err);
  } finally {
    await handle.close();
  }
}

function tooLarge(file: string, size: number): ConfigFileError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return new ConfigFileError(
    file,
    `${file} is ${mb(size)} (${size} bytes), over the ${mb(CONFIG_SIZE_CAP)} a config.json may have: not read. Is it the right file? Restore config.json.bak or move it away.`,
    'config_too_large',
  );
}

/** Opening or reading failed: the reason in words (a missing file is null, not an error). */
async function unreadable(file: string, err: NodeJS.ErrnoException): Promise<ConfigFileError | null> {
  const code = err.code;
  if (code === 'ENOENT') {
    if (await isDanglingLink(file)) return new ConfigFileError(file, danglingLinkMessage(file), 'dangling_symlink');
    return null;
  }
  // the state dir's path runs through a file: say so, as making the dir would
  if (code === 'ENOTDIR') return new ConfigFileError(file, `Cannot read ${file}: part of its path is a file, not a folder. Set SVC_PROXY_HOME to a folder of your own (or fix that path).`, 'config_unreadable');
  if (code === 'EISDIR') return new ConfigFileError(file, `Cannot read ${file}: it is a folder, not a file. Move it away; svc-proxy then starts from the defaults.`, 'config_unreadable');
  if (code === 'EACCES' || code === 'EPERM') return new ConfigFileError(file, `Cannot read ${file}: this user may not read it (${code}). Fix its permissions (chmod 600, owned by you).`, 'config_unreadable');
  if (code === 'ELOOP') return new ConfigFileError(file, `Cannot read ${file}: its symbolic links go round in a loop. Point the link at the file.`, 'dangling_symlink');
  return new ConfigFileError(file, `Cannot read ${file}: ${err.message}`, 'config_unreadable');
}

export type ConfigListener = (config: Config) => void;

export class ConfigStore {
  readonly file: string;
  private readonly adapter: ValidatedConfigFile;
  private readonly db: Low<Config>;
  private snapshot: Config;
  private readonly listeners = new Set<ConfigListener>();
  /** Fields the last hand edit applied by reload() had that no setting matches (ignored). */
  unknownInLastEdit: string[] = [];
  /** Keys the last hand edit applied by reload() had twice (the last one is used). */
  duplicatesInLastEdit: string[] = [];

  private constructor(private readonly files: ConfigFiles, adapter: ValidatedConfigFile, db: Low<Config>) {
    this.file = files.config;
    this.adapter = adapter;
    this.db = db;
    this.snapshot = db.data;
  }

  /** Load (and validate) config.json; a missing file means the defaults. Throws ConfigFileError. */
  static async open(files: ConfigFiles): Promise<ConfigStore> {
    const adapter = new ValidatedConfigFile(files);
    const db = new Low<Config>(adapter, defaultConfig());
    await db.read();
    return new ConfigStore(files, adapter, db);
  }

  /** The last good configuration. Treat as read-only. */
  current(): Config {
    return this.snapshot;
  }

  /** Whether config.json exists on disk as we last saw it. */
  get existsOnDisk(): boolean {
    return this.adapter.lastText !== null;
  }

  /**
   * Apply a change: lock, re-read the file (so nobody's write is lost), mutate, validate, write.
   * Listeners run before this resolves, so callers can rely on the change being in effect.
   */
  async update<T>(mutate: (draft: Config) => T): Promise<T> {
    return withFileLock(await this.lockPath(), async () => {
      await this.db.read();
      const result = mutate(this.db.data);
      await this.db.write();
      // Re-parse what was written so the snapshot carries schema defaults exactly as on disk.
      this.setSnapshot(parseConfigText(this.adapter.lastText as string, this.file).config);
      return result;
    });
  }

  /** Write the current file out (creating it with defaults when missing). */
  async ensureFile(): Promise<void> {
    if (this.existsOnDisk) return;
    await this.update(() => undefined);
  }

  /**
   * Re-read the file after an outside edit. Returns false when the text is what we last saw.
   * On an invalid file, or one that is gone, throws ConfigFileError and keeps the last good snapshot.
   */
  async reload(): Promise<boolean> {
    // Under the lock, so a read that started before one of our writes can never be applied
    // after it (which would put the older config back).
    return withFileLock(await this.lockPath(), async () => {
      const text = await readTextOrNull(this.file);
      if (text === this.adapter.lastText) return false;
      if (text === null) throw gone(this.file);
      const { config, unknown } = parseConfigText(text, this.file);
      this.unknownInLastEdit = unknown;
      this.duplicatesInLastEdit = duplicateKeys(text);
      this.adapter.lastText = text;
      this.setSnapshot(config);
      return true;
    });
  }

  /** config.json.lock in the state dir, or beside a link's target (lock-path.ts). */
  private lockPath(): Promise<string> {
    return lockPathFor(this.files.config, this.files.configLock);
  }

  /** Listeners run synchronously while the file lock is held: they must not call update() or reload(). */
  onChange(listener: ConfigListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setSnapshot(config: Config): void {
    this.snapshot = config;
    this.db.data = config;
    for (const listener of this.listeners) listener(config);
  }
}
