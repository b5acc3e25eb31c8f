/**
 * The headless fallback: credentials in a 0600 JSON file in the state directory, written only when
 * the user asked for it with --insecure-storage (as the GitHub CLI does when no keyring exists).
 * As ssh with a private key, a file group or others can read is warned of when read (not refused:
 * the keys in it are already out) and made 0600 when written, a link's target as well.
 */
import { open } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-write.js';
import { ConfigFileError } from '../config/errors.js';
import { withFileLock } from '../config/file-lock.js';
import { DanglingLinkError, isDanglingLink } from '../config/link-target.js';
import { lockPathFor } from '../config/lock-path.js';
import { openFileWarning, OWNER_ONLY_FILE, openToOthers, tightenedMessage } from '../config/private-mode.js';

/** Where a word about the file's mode goes: daemon.log for the daemon, stderr for the CLI. Never a value. */
export type ModeNotice = (message: string) => void;

const HOLDS = 'provider credentials';

interface CredentialsFile {
  version: 1;
  credentials: Record<string, string>;
}

export class CredentialFile {
  /** The open mode last warned of: the file is read once per provider, the warning given once. */
  private warnedMode: number | undefined;

  constructor(
    readonly path: string,
    private readonly notice: ModeNotice = () => {},
  ) {}

  async readAll(): Promise<Record<string, string>> {
    const { all, mode } = await this.load();
    if (mode !== undefined) this.warnIfOpen(mode);
    return all;
  }

  /** The entries and the file's mode (none when there is no file). */
  private async load(): Promise<{ all: Record<string, string>; mode?: number }> {
    let handle;
    try {
      handle = await open(this.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // a link to nothing is not "no credentials": a set would fail, a get would say "not connected"
      if (await isDanglingLink(this.path)) throw new DanglingLinkError(this.path);
      return { all: {} };
    }
    let text: string;
    let mode: number;
    try {
      mode = (await handle.stat()).mode & 0o777;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
    try {
      const parsed = JSON.parse(text) as Partial<CredentialsFile>;
      const all: Record<string, string> = {};
      for (const [k, v] of Object.entries(parsed.credentials ?? {})) if (typeof v === 'string') all[k] = v;
      return { all, mode };
    } catch {
      // Never echo the file: it holds secrets.
      throw new ConfigFileError(this.path, `${this.path} is not valid JSON; fix or delete it and connect again.`, 'credentials_invalid');
    }
  }

  async get(account: string): Promise<string | undefined> {
    return (await this.readAll())[account];
  }

  /** `heard`: also told what this write says of the file's mode (the daemon hands it to the client that asked). */
  async set(account: string, secret: string, heard?: ModeNotice): Promise<void> {
    await this.change((all) => {
      all[account] = secret;
    }, heard);
  }

  async delete(account: string, heard?: ModeNotice): Promise<boolean> {
    const { all, mode } = await this.load();
    if (!(account in all)) {
      if (mode !== undefined) this.warnIfOpen(mode, heard);
      return false;
    }
    // no warning for the read: the write that follows makes the file 0600 and says that, in one line
    let had = false;
    await this.change((fresh) => {
      had = account in fresh;
      delete fresh[account];
    }, heard);
    return had;
  }

  private warnIfOpen(mode: number, heard?: ModeNotice): void {
    if (!openToOthers(mode)) {
      this.warnedMode = undefined;
      return;
    }
    const warning = openFileWarning(this.path, mode, HOLDS);
    // the client that asked has not heard it, however often the log has (the daemon read the file at its start)
    heard?.(warning);
    if (mode === this.warnedMode) return;
    this.warnedMode = mode;
    this.notice(warning);
  }

  private say(message: string, heard: ModeNotice | undefined): void {
    this.notice(message);
    heard?.(message);
  }

  private async change(mutate: (all: Record<string, string>) => void, heard?: ModeNotice): Promise<void> {
    // beside a link's target, so state dirs linking one file keep each other's keys (lock-path.ts)
    await withFileLock(await lockPathFor(this.path), async () => {
      const { all } = await this.load();
      mutate(all);
      const body: CredentialsFile = { version: 1, credentials: all };
      const written = await writeFileAtomic(this.path, `${JSON.stringify(body, null, 2)}\n`, { mode: OWNER_ONLY_FILE, secret: true });
      const tightened = tightenedMessage(this.path, written, HOLDS);
      if (tightened === undefined) return;
      this.warnedMode = undefined;
      this.say(tightened, heard);
    });
  }
}
