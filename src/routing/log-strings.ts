/**
 * One copy of each model name the request log's records hold. Every request parses its own copy
 * of the same few names (the model asked, the upstream model, the target tried), and the log's
 * ring keeps 2,000 records: each record then points at the copy already kept instead of holding
 * three strings of its own. Bounded: a client inventing names only refills the table.
 */
const MAX_NAMES = 256;
const names = new Map<string, string>();

export function sharedName(name: string): string {
  const known = names.get(name);
  if (known !== undefined) return known;
  if (names.size >= MAX_NAMES) names.clear();
  names.set(name, name);
  return name;
}
