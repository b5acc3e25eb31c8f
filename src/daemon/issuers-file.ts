/**
 * The proof issuers (routing/proof-issuers.ts) kept in the state dir across restarts: a
 * conversation that moved from a custom Messages endpoint (GLM, Kimi …) to Claude after the daemon
 * restarted would otherwise carry that endpoint's signatures to Anthropic, a 400. The file holds
 * SHA-256 keys of signatures and the slugs that issued them, nothing a client wrote. It is
 * replaced atomically (0600) at most every `everyMs` when something changed, and at stop; a file
 * that cannot be read is reported and left for the next save to replace.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../config/atomic-write.js';
import { ProofIssuers, type IssuerEntry } from '../routing/proof-issuers.js';

const FORMAT = 1;
/** A base64 SHA-256, as ProofIssuers keys signatures. */
const KEY = /^[A-Za-z0-9+/]{43}=$/;

function isEntry(v: unknown): v is IssuerEntry {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && KEY.test(v[0]) && typeof v[1] === 'string' && v[1] !== '';
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The issuers saved in `path`, or none when there is no such file (or it cannot be read). */
export async function loadIssuers(path: string, warn: (message: string) => void): Promise<ProofIssuers> {
  const issuers = new ProofIssuers();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') warn(`could not read ${path} (${message(err)}); starting without it`);
    return issuers;
  }
  try {
    const saved = JSON.parse(text) as { format?: unknown; entries?: unknown };
    if (saved.format !== FORMAT || !Array.isArray(saved.entries)) throw new Error(`not a format ${FORMAT} file`);
    issuers.restore(saved.entries.filter(isEntry));
  } catch (err) {
    warn(`could not read ${path} (${message(err)}); starting without it`);
  }
  return issuers;
}

export interface IssuersSaver {
  /** Write the file now if anything changed since the last write (writes run one at a time). */
  save(): Promise<void>;
  /** Stop the periodic writes (a last `save` is the caller's). */
  stop(): void;
}

export function saveIssuersPeriodically(issuers: ProofIssuers, path: string, everyMs: number, warn: (message: string) => void): IssuersSaver {
  // what was loaded is on disk already
  let saved = issuers.version;
  let warned = false;
  let queue: Promise<void> = Promise.resolve();
  const write = async (): Promise<void> => {
    const version = issuers.version;
    if (version === saved) return;
    try {
      await writeFileAtomic(path, JSON.stringify({ format: FORMAT, entries: issuers.entries() }), { mode: 0o600 });
      saved = version;
      warned = false;
    } catch (err) {
      // once until a write succeeds again: a full disk would otherwise repeat it every interval
      if (!warned) warn(`could not save ${path}: ${message(err)}`);
      warned = true;
    }
  };
  const save = (): Promise<void> => (queue = queue.then(write));
  const timer = setInterval(() => void save(), everyMs);
  timer.unref();
  return { save, stop: () => clearInterval(timer) };
}
