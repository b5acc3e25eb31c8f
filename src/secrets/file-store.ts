/**
 * The headless fallback: credentials in a 0600 JSON file in the state directory, written only when
 * the user asked for it with --insecure-storage (as the GitHub CLI does when no keyring exists).
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-write.js';
import { withFileLock } from '../config/file-lock.js';
import { DanglingLinkError, isDanglingLink } from '../config/link-target.js';

interface CredentialsFile {
  version: 1;
  credentials: Record<string, string>;
}

export class CredentialFile {
  constructor(readonly path: string) {}

  async readAll(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // a link to nothing is not "no credentials": a set would fail, a get would say "not connected"
      if (await isDanglingLink(this.path)) throw new DanglingLinkError(this.path);
      return {};
    }
    try {
      const parsed = JSON.parse(text) as Partial<CredentialsFile>;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(parsed.credentials ?? {})) if (typeof v === 'string') out[k] = v;
      return out;
    } catch {
      // Never echo the file: it holds secrets.
      throw new Error(`${this.path} is not valid JSON; fix or delete it and connect again.`);
    }
  }

  async get(account: string): Promise<string | undefined> {
    return (await this.readAll())[account];
  }

  async set(account: string, secret: string): Promise<void> {
    await this.change((all) => {
      all[account] = secret;
    });
  }

  async delete(account: string): Promise<boolean> {
    if (!(account in (await this.readAll()))) return false;
    let had = false;
    await this.change((all) => {
      had = account in all;
      delete all[account];
    });
    return had;
  }

  private async change(mutate: (all: Record<string, string>) => void): Promise<void> {
    await withFileLock(`${this.path}.lock`, async () => {
      const all = await this.readAll();
      mutate(all);
      const body: CredentialsFile = { version: 1, credentials: all };
      await writeFileAtomic(this.path, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    });
  }
}
