/**
 * One copy of each model name the request log's records hold. Every request parses its own copy
 * of the same few names (the model asked, the upstream model, the target tried), and the log's
 * ring keeps 2,000 records: each record then points at the copy already kept instead of holding
 * three strings of its own. Bounded: a client inventing names only refills the table.
 *
 * Shared only once masked (mask-fields.ts): a key pasted into a model id must not stay in the
 * table after its record was masked. A name is kept to MAX_NAME_LENGTH characters, as a record's
 * path and origin are: a body may name a model of megabytes, which 2,000 records would otherwise hold.
 */
import type { RequestLogEntry } from './entry.js';

const MAX_NAMES = 256;
const MAX_NAME_LENGTH = 200;
const names = new Map<string, string>();

function sharedName(whole: string): string {
  const name = whole.length > MAX_NAME_LENGTH ? `${whole.slice(0, MAX_NAME_LENGTH - 1)}…` : whole;
  const known = names.get(name);
  if (known !== undefined) return known;
  if (names.size >= MAX_NAMES) names.clear();
  names.set(name, name);
  return name;
}

/** The entry's model names (asked, answered, each attempt's target) as the table's copies, each cut to MAX_NAME_LENGTH. */
export function shareNames(e: RequestLogEntry): void {
  if (e.modelAsked !== undefined) e.modelAsked = sharedName(e.modelAsked);
  if (e.model !== undefined) e.model = sharedName(e.model);
  for (const a of e.attempts) a.target = sharedName(a.target);
}
